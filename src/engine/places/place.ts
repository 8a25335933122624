// Where a worker runs, as one port: its tmux, its workspace's live changes and capture, its reset and removal, its
// launch and the containment it offers. Each place is one file; `placeAt` is the one line that chooses among them, so
// the engine asks the port and never branches on where a worker runs.

import type { Containment } from "../workers/containment.js";
import type { ChangeSet } from "../../domain/deliverables/deliverable.js";
import type { WorkerAgent } from "../../domain/agents/traits.js";
import type { LaunchExecution } from "../../domain/workers/execution.js";
import type { Worker } from "../../domain/workers/worker.js";
import type { CaptureJob } from "../../substrate/git/capture-off-loop.js";
import type { PaneMap, Tmux } from "../../substrate/tmux.js";
import type { EngineContext } from "../context.js";
import { lazyModule } from "../../substrate/require-esm.js";
import { localPlace } from "./local.js";
import type * as SshHostModule from "./ssh-host.js";

export type WindowIds = { windowId: string; paneId: string };

export interface WorkerPlace {
  /** The host it runs on, as surfaces show it; undefined: this machine. */
  readonly host: string | undefined;
  /** Words saying where its workspace is, after the noun: "" here, " on host h" there. */
  readonly at: string;
  /** Which of a read's host listings holds its panes; undefined: this machine's own listing. */
  readonly listingKey: string | undefined;
  /** The door's watcher looks at it every few seconds (a look at a host costs a round trip: reads look there). */
  readonly watched: boolean;

  /** The tmux server its window lives on (peek, tell, paste, kill, harvest, list). */
  tmux(): Tmux;
  /** Its pane listing among those a read took: this machine's, and each host's (undefined: it did not answer). */
  listingIn(local: PaneMap | undefined, hosts?: ReadonlyMap<string, PaneMap | undefined>): PaneMap | undefined;
  /** Inside tmux here, a switch to its window; otherwise the exact command that attaches. */
  attach(session: string, windowId: string): { switched: boolean; command: string[] };

  /** The spawn line's words for where it runs (`byConfig`: the user config's default chose it). */
  runsOn(byConfig: boolean): string;
  /** Checked before anything is written: the worker can run here. */
  assertSpawnable(execution: { agent: WorkerAgent; workspace: string; from: "--host" | "worker.host" }): void;
  /** The place answers, before the ledger has a row for the worker. */
  reach(): void;
  /** Its workspace and task where it runs, beyond the ones made here (the spawn's workspace is at `base`). */
  prepareWorkspace(
    row: Worker,
    base: string,
    task: (at: { workspace: string; source: string }) => string,
    source?: string,
  ): void;
  /** Whether a launch here is contained (`off` is decided before a place is asked). */
  decideContainment(
    execution: Pick<LaunchExecution, "workspace" | "readOnly" | "host" | "kind">,
    mode: "auto" | "required",
  ): Containment;
  /** One generation's launch, prepared (refusals come now); its window opens on `start`. */
  prepareLaunch(
    row: Worker,
    execution: LaunchExecution,
    launch: { generation: number; env: Record<string, string>; session: string; containment: Containment },
  ): () => WindowIds;

  /** What it changed against its base, read where its workspace is; none without a base. */
  liveChangedPaths(row: Worker): string[];
  /** Whether its workspace holds changes against its base. */
  hasLiveChanges(row: Worker): boolean;
  /** Its change set for `done`, with the same checks wherever its bytes come from. */
  capture(row: Worker, input: CaptureJob["input"]): ChangeSet;
  /** Where a capture in a thread reads its bytes (nothing to add: this machine's workspace). */
  captureSource(row: Worker): Pick<CaptureJob, "remote">;
  /** Discard: its workspace back to its base. */
  reset(row: Worker, base: string): void;
  /** Promotion: its workspace back to its base only while its live tree is still base + the promoted patch. */
  settle(row: Worker, base: string, patch: string): "reset" | "kept-later-edits" | "missing";
  /** Delete (or a spawn given up): what it had where it runs, beyond this machine's files, goes. */
  retire(row: Worker): void;
}

// Loaded for the first worker on a host: a fleet of this machine's workers loads nothing of ssh.
const sshHost = lazyModule<typeof SshHostModule>(import.meta.url, "./ssh-host.js");

/** The one choice of place: a host named in the worker's execution, or this machine. */
export function placeAt(ctx: EngineContext, host: string | undefined): WorkerPlace {
  return host === undefined ? localPlace(ctx) : sshHost().sshHostPlace(ctx, host);
}

/** A worker's place, from its row or its execution. */
export const placeOf = (ctx: EngineContext, of: { execution?: { host?: string } | null }): WorkerPlace =>
  placeAt(ctx, of.execution?.host);

/** The listing of one place; undefined when it does not answer (its workers then count as live). */
function tryListing(place: WorkerPlace): PaneMap | undefined {
  try {
    return place.tmux().listPanes();
  } catch {
    return undefined; // unreachable (or no longer in the config): shown as such, never waited on
  }
}

/** One pane listing per place the rows run on beyond this machine's own, keyed by `listingKey`. */
export function placeListings(ctx: EngineContext, rows: readonly Worker[]): Map<string, PaneMap | undefined> {
  const out = new Map<string, PaneMap | undefined>();
  for (const row of rows) {
    const place = placeOf(ctx, row);
    if (place.listingKey !== undefined && !out.has(place.listingKey)) out.set(place.listingKey, tryListing(place));
  }
  return out;
}

/** The listing a key names, for the fleet cap's snapshot (`takePaneSnapshot`'s `listHost`). */
export const listingAt = (ctx: EngineContext, key: string): PaneMap | undefined => tryListing(placeAt(ctx, key));
