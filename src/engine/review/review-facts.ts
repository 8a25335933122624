// What one review run reads once and shares between its cards (issue 17): pending frozen patches (each sidecar read and
// parsed once, indexed by path), parent-checkout facts (each base asked once), each pair's dry merge (Combine) run once.

import type { ChangeSet, DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { parsePatchRanges, type FileRanges } from "../../domain/deliverables/patch-ranges.js";
import { preimagePaths } from "../../domain/review/overlap.js";
import { readDeliverable } from "../../files/workers/deliverables.js";
import type { Worker } from "../../domain/workers/worker.js";
import { workersOf } from "../../ledger/workers/launches.js";
import type { ParentAnswer, ParentChange, ParentQuery } from "../../substrate/git/promote.js";
import type { EngineContext } from "../context.js";
import { pointerOf } from "./deliverables.js";
import { isPatchPending } from "./target.js";

export interface PeerPatch {
  row: Worker;
  pointer: DeliverablePointer;
  change: ChangeSet;
  ranges: FileRanges[];
}

export interface ReviewFacts {
  /** Pending (neither promoted, rejected nor combined) current frozen patches of the project's live workers, in worker order. */
  peers(projectRoot: string): readonly PeerPatch[];
  /** The pending patches touching any of these pre-image paths, in worker order. */
  peersTouching(projectRoot: string, paths: readonly string[]): PeerPatch[];
  /** A frozen patch's line ranges, parsed once per immutable ref. */
  ranges(ref: string, patch: string): FileRanges[];
  /** Which of the query's paths the parent changed since its base (undefined: cannot tell); throws what git threw. */
  parentChanges(repoRoot: string, query: ParentQuery): ParentChange[] | undefined;
  /** Asks git once for all these queries, so each later parentChanges of one of them is answered from memory. */
  prefetchParentChanges(repoRoot: string, queries: readonly ParentQuery[]): void;
  /** The dry merge of two exact versions (Combine's preview), run once whichever of the pair's cards asks first. */
  dryMerge(refs: readonly [string, string], run: () => string): string;
}

/** Facts for one review run; a run that reviews one card may simply use a fresh one. */
export function reviewFacts(ctx: EngineContext): ReviewFacts {
  const projects = new Map<string, { peers: PeerPatch[]; byPath: Map<string, PeerPatch[]> }>();
  const parsed = new Map<string, FileRanges[]>();
  const answers = new Map<string, ParentAnswer>();
  const merges = new Map<string, string>();
  const keyOf = (repoRoot: string, q: ParentQuery) => JSON.stringify([repoRoot, q.base, q.baseHead, q.paths]);
  const ranges = (ref: string, patch: string): FileRanges[] => {
    let r = parsed.get(ref);
    if (!r) parsed.set(ref, (r = parsePatchRanges(patch)));
    return r;
  };

  function project(projectRoot: string) {
    let p = projects.get(projectRoot);
    if (p) return p;
    const rows = workersOf(ctx.db, { projectRoot }).filter((r) => r.deliverableRef !== null);
    const peers: PeerPatch[] = [];
    const byPath = new Map<string, PeerPatch[]>();
    for (const row of rows) {
      const pointer = pointerOf(row)!;
      if (!isPatchPending(ctx.db, pointer)) continue;
      const read = readDeliverable(ctx.home, row.id, pointer.version);
      if (!read.ok || !read.deliverable.changeSet || read.deliverable.changeSet.patch === "") continue;
      const peer = { row, pointer, change: read.deliverable.changeSet, ranges: ranges(pointer.ref, read.deliverable.changeSet.patch) };
      peers.push(peer);
      for (const path of preimagePaths(peer.ranges)) {
        const list = byPath.get(path);
        if (list) list.push(peer);
        else byPath.set(path, [peer]);
      }
    }
    projects.set(projectRoot, (p = { peers, byPath }));
    return p;
  }

  return {
    peers: (projectRoot) => project(projectRoot).peers,
    peersTouching(projectRoot, paths) {
      const { byPath } = project(projectRoot);
      const found = new Set(paths.flatMap((path) => byPath.get(path) ?? []));
      return [...found].sort((a, b) => a.row.seq - b.row.seq);
    },
    ranges,
    parentChanges(repoRoot, query) {
      const key = keyOf(repoRoot, query);
      let answer = answers.get(key);
      if (!answer) answers.set(key, (answer = ctx.git.parentChangesForEach(repoRoot, [query])[0]!));
      if (!answer.ok) throw answer.error;
      return answer.changes;
    },
    prefetchParentChanges(repoRoot, queries) {
      const fresh = queries.filter((q) => !answers.has(keyOf(repoRoot, q)));
      ctx.git.parentChangesForEach(repoRoot, fresh).forEach((a, i) => answers.set(keyOf(repoRoot, fresh[i]!), a));
    },
    dryMerge(refs, run) {
      const key = JSON.stringify([...refs].sort());
      let summary = merges.get(key);
      if (summary === undefined) merges.set(key, (summary = run()));
      return summary;
    },
  };
}
