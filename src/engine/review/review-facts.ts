// What one review run reads once and shares between its cards: pending frozen patches (each sidecar read and
// parsed once, and only for a peer the ledger says edited a path asked about), parent-checkout facts (each base asked once, or not at all when nothing moved: parent-cache.ts), each pair's dry merge (Combine) run once.

import type { ChangeSet, DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { parsePatchRanges, type FileRanges } from "../../domain/deliverables/patch-ranges.js";
import { preimagePaths } from "../../domain/review/overlap.js";
import { readDeliverable, type SidecarRead } from "../../files/workers/deliverables.js";
import type { Worker } from "../../domain/workers/worker.js";
import { pendingVersionRows } from "../../ledger/review/review-rows.js";
import { touchesOf } from "../../ledger/workers/touched-paths.js";
import type { ParentAnswer, ParentChange, ParentQuery } from "../../substrate/git/promote.js";
import type { EngineContext } from "../context.js";
import { pointerOf } from "./deliverables.js";
import { cachedParentChanges } from "./parent-cache.js";

export interface PeerPatch {
  row: Worker;
  pointer: DeliverablePointer;
  change: ChangeSet;
  ranges: FileRanges[];
}

export interface ReviewFacts {
  /** `worker`'s current frozen patch when it is pending (neither promoted, rejected nor combined) in this project. */
  pendingPeer(projectRoot: string, worker: string): PeerPatch | null;
  /** The pending patches touching any of these pre-image paths, in worker order. */
  peersTouching(projectRoot: string, paths: readonly string[]): PeerPatch[];
  /** Whether the ledger records `worker` editing any of `paths` (every frozen file is recorded): else its sidecar need not be read. */
  mayHaveEdited(worker: string, paths: readonly string[]): boolean;
  /** A frozen patch's line ranges, parsed once per immutable ref. */
  ranges(ref: string, patch: string): FileRanges[];
  /** Which of the query's paths the parent changed since its base (undefined: cannot tell); throws what git threw. */
  parentChanges(repoRoot: string, query: ParentQuery): ParentChange[] | undefined;
  /** Asks git once for all these queries, so each later parentChanges of one of them is answered from memory. */
  prefetchParentChanges(repoRoot: string, queries: readonly ParentQuery[]): void;
  /** One version's sidecar, read and validated once per run (its card and its peers' overlap checks share it). */
  sidecar(workerId: string, version: number): SidecarRead;
  /** The dry merge of two exact versions (Combine's preview), run once whichever of the pair's cards asks first. */
  dryMerge(refs: readonly [string, string], run: () => string): string;
}

/** Facts for one review run; a run that reviews one card may simply use a fresh one. */
export function reviewFacts(ctx: EngineContext): ReviewFacts {
  const projects = new Map<string, { rows: Worker[]; byPath: Map<string, Worker[]> }>();
  const read = new Map<string, PeerPatch | null>();
  const edited = new Map<string, Set<string>>();
  const parsed = new Map<string, FileRanges[]>();
  const answers = new Map<string, ParentAnswer>();
  const merges = new Map<string, string>();
  const sidecars = new Map<string, SidecarRead>();
  const sidecar = (workerId: string, version: number): SidecarRead => {
    const key = `${workerId}:${version}`;
    let s = sidecars.get(key);
    if (!s) sidecars.set(key, (s = readDeliverable(ctx.home, workerId, version)));
    return s;
  };
  const keyOf = (repoRoot: string, q: ParentQuery) => JSON.stringify([repoRoot, q.base, q.baseHead, q.paths]);
  const ranges = (ref: string, patch: string): FileRanges[] => {
    let r = parsed.get(ref);
    if (!r) parsed.set(ref, (r = parsePatchRanges(patch)));
    return r;
  };

  /** A pending peer's sidecar, read (once) only when a view needs its patch. */
  function peerOf(row: Worker): PeerPatch | null {
    let peer = read.get(row.id);
    if (peer !== undefined) return peer;
    const pointer = pointerOf(row)!;
    const file = sidecar(row.id, pointer.version);
    const change = file.ok ? file.deliverable.changeSet : null;
    peer = change && change.patch !== "" ? { row, pointer, change, ranges: ranges(pointer.ref, change.patch) } : null;
    read.set(row.id, peer);
    return peer;
  }

  /**
   * The project's live workers with a pending version, indexed by the paths the ledger records each edited (its frozen
   * files among them): a card asks only the peers that can touch its paths, so no other worker's sidecar is opened.
   */
  function project(projectRoot: string) {
    let p = projects.get(projectRoot);
    if (p) return p;
    const rows = pendingVersionRows(ctx.db, projectRoot); // settled workers' closed versions are never read

    const byPath = new Map<string, Worker[]>();
    for (const [worker, paths] of editsOf(rows.map((r) => r.id))) {
      const row = rows.find((r) => r.id === worker)!;
      for (const path of paths) byPath.set(path, [...(byPath.get(path) ?? []), row]);
    }
    projects.set(projectRoot, (p = { rows, byPath }));
    return p;
  }

  function editsOf(workers: readonly string[]): Map<string, Set<string>> {
    const missing = workers.filter((w) => !edited.has(w));
    for (const [w, t] of touchesOf(ctx.db, missing)) edited.set(w, new Set(t.edit));
    return new Map(workers.map((w) => [w, edited.get(w)!]));
  }

  return {
    pendingPeer(projectRoot, worker) {
      const row = project(projectRoot).rows.find((r) => r.id === worker);
      return row ? peerOf(row) : null;
    },
    peersTouching(projectRoot, paths) {
      const { byPath } = project(projectRoot);
      const rows = new Set(paths.flatMap((path) => byPath.get(path) ?? []));
      const wanted = new Set(paths);
      return [...rows]
        .map(peerOf)
        .filter((p): p is PeerPatch => p !== null && preimagePaths(p.ranges).some((path) => wanted.has(path)))
        .sort((a, b) => a.row.seq - b.row.seq);
    },
    mayHaveEdited: (worker, paths) => paths.some((path) => editsOf([worker]).get(worker)!.has(path)),
    ranges,
    sidecar,
    parentChanges(repoRoot, query) {
      const key = keyOf(repoRoot, query);
      let answer = answers.get(key);
      if (!answer) answers.set(key, (answer = cachedParentChanges(ctx, repoRoot, [query])[0]!));
      if (!answer.ok) throw answer.error;
      return answer.changes;
    },
    prefetchParentChanges(repoRoot, queries) {
      const fresh = queries.filter((q) => !answers.has(keyOf(repoRoot, q)));
      cachedParentChanges(ctx, repoRoot, fresh).forEach((a, i) => answers.set(keyOf(repoRoot, fresh[i]!), a));
    },
    dryMerge(refs, run) {
      const key = JSON.stringify([...refs].sort());
      let summary = merges.get(key);
      if (summary === undefined) merges.set(key, (summary = run()));
      return summary;
    },
  };
}
