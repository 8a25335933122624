// The observer: what a running worker's screen and records say beyond its own calls. Its agent stopped on an error it
// cannot pass (blocked, in its own words), or it shows no progress for worker.stuckMinutes (stuck). Run by every read
// (ls, show, the fleet) and by the door's watcher; each finding is recorded once, so every surface shows the same.

import { createHash } from "node:crypto";
import { placeOf } from "../places/place.js";
import { AGENT_TRAITS } from "../../domain/agents/traits.js";
import type { Worker } from "../../domain/workers/worker.js";
import { isTerminal } from "../../domain/workers/lifecycle.js";
import { isStuck, lastProgressMs, stuckText } from "../../domain/workers/evidence.js";
import { eventsTouchedMs } from "../../files/workers/events-log.js";
import { WORKER_FILES, workerPath } from "../../files/workers/worker-files.js";
import { openFindings, type Finding } from "../../ledger/workers/findings.js";
import { getWorker } from "../../ledger/workers/workers.js";
import { paneFromMap, type PaneMap } from "../../substrate/tmux.js";
import type { EngineContext } from "../context.js";
import { closeFindings, recordFinding } from "./findings.js";

/** Lines of the screen read for signatures and changes (the bottom of it is what counts). */
const SCREEN_LINES = 40;

/**
 * When each worker's current screen last changed, as this process saw it (a long-lived door or page remembers). One
 * entry per worker, dropped once it has finished, so a door that runs for weeks holds no more than its fleet.
 */
const screens = new Map<string, { generation: number; digest: string; changedAt: number }>();

const stuckMsOf = (ctx: EngineContext): number => Math.max(0, ctx.config().worker.stuckMinutes) * 60_000;

/**
 * Looks at each running worker whose pane is alive and records what changed in what it shows; true when anything
 * was recorded (the caller reads its rows again). A worker on a host is looked at only when its host's listing is given.
 */
export function observeWorkers(
  ctx: EngineContext,
  rows: readonly Worker[],
  panes: PaneMap | undefined,
  hosts?: ReadonlyMap<string, PaneMap | undefined>,
): boolean {
  if (ctx.readOnly) return false;
  const open = openFindings(ctx.db);
  const nowMs = ctx.clock.nowMs();
  const stuckMs = stuckMsOf(ctx);
  let changed = false;
  for (const row of rows) {
    if (row.exited || row.paneId === null || isTerminal(row.state) || row.state === "needs_input") continue;
    const listing = placeOf(ctx, row).listingIn(panes, hosts);
    if (listing === undefined || paneFromMap(listing, row.paneId, row.id) !== "alive") continue;
    const mine = open.filter((f) => f.worker === row.id);
    changed = observeOne(ctx, row, mine, { nowMs, stuckMs }) || changed;
  }
  forgetFinished(ctx, rows);
  return changed;
}

/** A remembered worker that is gone, exited or finished (ready, failed, ended) is forgotten, read by this look or not. */
function forgetFinished(ctx: EngineContext, rows: readonly Worker[]): void {
  const read = new Map(rows.map((r) => [r.id, r]));
  for (const id of screens.keys()) {
    const row = read.get(id) ?? getWorker(ctx.db, id);
    if (!row || row.exited || isTerminal(row.state)) screens.delete(id);
  }
}

function observeOne(
  ctx: EngineContext,
  row: Worker,
  open: readonly Finding[],
  at: { nowMs: number; stuckMs: number },
): boolean {
  const tmux = placeOf(ctx, row).tmux();
  let screen: string | undefined;
  const read = (): string => {
    if (screen === undefined) {
      try {
        screen = tmux.capture(row.paneId!, SCREEN_LINES);
      } catch {
        screen = ""; // the pane went between the listing and now: the next look harvests it
      }
    }
    return screen;
  };
  let changed = false;
  const who = { worker: row.id, generation: row.generation };
  if (AGENT_TRAITS[row.agent].screenShowsBlocked) {
    const said = ctx.agents.blockedLine(row.agent, read());
    const blocked = open.filter((f) => f.kind === "blocked").at(-1);
    if (said !== undefined) changed = recordFinding(ctx, who, "blocked", said) || changed;
    else if (blocked) changed = closeFindings(ctx, row.id, ["blocked"]) || changed;
  }
  if (at.stuckMs > 0 && (row.state === "starting" || row.state === "active")) {
    const signs = lastProgressMs([
      row.updatedAt,
      row.heartbeatAt,
      eventsTouchedMs(workerPath(ctx.home, row.id, WORKER_FILES.events)),
    ]);
    // The screen is read only when the other signs are getting old: a busy fleet costs no capture per look.
    const screen = at.nowMs - signs >= at.stuckMs / 2 ? screenChange(row, read(), at.nowMs) : undefined;
    const stuck = open.filter((f) => f.kind === "stuck").at(-1);
    // A first look at a screen cannot tell when it last changed: it holds off a new finding, never ends one.
    if (isStuck(row.state, Math.max(signs, screen?.at ?? 0), at.nowMs, at.stuckMs)) {
      if (!stuck) changed = recordFinding(ctx, who, "stuck", stuckText(at.stuckMs)) || changed;
    } else if (stuck && Math.max(signs, screen?.seen ? screen.at : 0) > Date.parse(stuck.foundAt))
      changed = closeFindings(ctx, row.id, ["stuck"]) || changed;
  }
  return changed;
}

/** The workers whose screens this process remembers (so a test can see the memory stays the fleet's size). */
export const rememberedScreens = (): string[] => [...screens.keys()];

/** When this generation's screen last changed as this process saw it; `seen` false on its first look (now, unknown). */
function screenChange(row: Worker, text: string, nowMs: number): { at: number; seen: boolean } {
  const digest = createHash("sha256").update(text).digest("hex");
  const before = screens.get(row.id);
  const known = before?.generation === row.generation;
  if (known && before.digest === digest) return { at: before.changedAt, seen: true };
  screens.set(row.id, { generation: row.generation, digest, changedAt: nowMs });
  return { at: nowMs, seen: known };
}
