// Two workers with real worktrees of one project, each publishing a frozen version through the real `done`, and a
// fingerprint of the human's checkout (status, index bytes, HEAD, object count) to prove Combine touched none of it.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "./git.js";
import { combineChangeSets } from "../../src/engine/review/combine.js";
import { appWith, publish, reviewGround, reviewWorker, type ReviewGround } from "./review-fixture.js";
import type { ProtocolWorker } from "./protocol-worker.js";

type T = { after(fn: () => void): void };

export interface Pair {
  g: ReviewGround;
  a: ProtocolWorker;
  b: ProtocolWorker;
}

/** Two workers (w1, w2) of one project whose files are `files`. */
export function pairGround(t: T, files: Record<string, string>): Pair {
  const g = reviewGround(t, files);
  return { g, a: reviewWorker(t, g), b: reviewWorker(t, g) };
}

/** Two workers whose v1s change lines 12 and 14 of src/app.txt, combined: Combine's answer and the combined v1's ref. */
export function combinedPair(t: T): Pair & { combined: ReturnType<typeof combineChangeSets>; ref: string } {
  const g = reviewGround(t);
  const p = { g, a: reviewWorker(t, g), b: reviewWorker(t, g) };
  publish(g, p.a, { "src/app.txt": appWith({ 12: "twelve by a" }) });
  publish(g, p.b, { "src/app.txt": appWith({ 14: "fourteen by b" }) });
  const combined = combineChangeSets(g.ctx, { sources: [p.a.worker, p.b.worker] });
  return { ...p, combined, ref: `combined:${p.a.worker}+${p.b.worker}:1` };
}

/** Each worker changes its files (edits, new files; `null` deletes) and publishes v1. */
export function publishBoth(p: Pair, a: Record<string, string | null>, b: Record<string, string | null>): void {
  for (const [w, files] of [
    [p.a, a],
    [p.b, b],
  ] as const) {
    const writes: Record<string, string> = {};
    for (const [path, text] of Object.entries(files)) {
      if (text === null) git(w.workspace, "rm", "-q", path);
      else writes[path] = text;
    }
    publish(p.g, w, writes);
  }
}

/** What Combine must never change in the human's checkout. */
export function checkoutFingerprint(project: string): Record<string, string> {
  const objects = git(project, "count-objects", "-v")
    .split("\n")
    .filter((l) => /^(count|in-pack|packs):/.test(l))
    .join(" ");
  return {
    status: git(project, "status", "--porcelain=v1", "--untracked-files=all"),
    head: git(project, "rev-parse", "HEAD").trim(),
    index: createHash("sha256")
      .update(readFileSync(join(project, ".git", "index")))
      .digest("hex"),
    objects,
    refs: git(project, "for-each-ref", "--format=%(refname) %(objectname)"),
    worktrees: git(project, "worktree", "list", "--porcelain"),
  };
}
