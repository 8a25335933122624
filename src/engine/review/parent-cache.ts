// What the parent checkout changed since each base, answered from the home's cache when nothing that would change the
// answer moved since the last look (the checkout's stamp, read without git), else from git, one diff per distinct base.
// Only a settled answer is kept: one read while a stamped file was newer than RACY_MS could change unseen within a tick.

import { readParentCache, writeParentCache, type ParentCacheEntry } from "../../files/review/parent-cache-file.js";
import type { ParentAnswer, ParentQuery } from "../../substrate/git/promote.js";
import type { EngineContext } from "../context.js";

const RACY_MS = 2_000;

const keyOf = (q: ParentQuery): string => JSON.stringify([q.base, q.baseHead, q.paths]);

/** parentChangesForEach through the cache; answers that could not be told (unknown base) or failed are never kept. */
export function cachedParentChanges(
  ctx: EngineContext,
  repoRoot: string,
  queries: readonly ParentQuery[],
): ParentAnswer[] {
  const started = ctx.clock.nowMs();
  const stamp = queries.length === 0 ? undefined : ctx.git.checkoutStamp(repoRoot);
  if (!stamp) return ctx.git.parentChangesForEach(repoRoot, queries);
  const cache = readParentCache(ctx.home, repoRoot);
  const answers: (ParentAnswer | undefined)[] = queries.map((q) => {
    const hit = cache.get(keyOf(q));
    const paths = stamp.paths(q.paths);
    return hit && paths !== undefined && hit.repo === stamp.repo && hit.paths === paths
      ? { ok: true, changes: hit.changes.map((c) => ({ ...c })) }
      : undefined;
  });
  const missing = queries.flatMap((q, i) => (answers[i] ? [] : [{ q, i }]));
  if (missing.length === 0) return answers as ParentAnswer[];
  const fresh = ctx.git.parentChangesForEach(
    repoRoot,
    missing.map((m) => m.q),
  );
  const kept = new Map<string, ParentCacheEntry>([...cache].filter(([, e]) => e.repo === stamp.repo));
  let added = false;
  missing.forEach(({ q, i }, k) => {
    const a = fresh[k]!;
    answers[i] = a;
    const paths = stamp.paths(q.paths);
    if (!a.ok || a.changes === undefined || paths === undefined) return;
    kept.delete(keyOf(q)); // re-set last, so the newest entries survive the file's entry ceiling
    kept.set(keyOf(q), { repo: stamp.repo, paths, changes: a.changes });
    added = true;
  });
  if (added && stamp.newest() < started - RACY_MS) writeParentCache(ctx.home, repoRoot, kept);
  return answers as ParentAnswer[];
}
