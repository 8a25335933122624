// The cross-process locks a burst of spawns takes: one per repository around worktree changes, one around pi's
// model listing. Both live under Docket's home (locks/), so the user's repository gets no extra files.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { withLockFile } from "../../files/lock-file.js";
import type { Serialize } from "../../substrate/git/worktree.js";
import type { EngineContext } from "../context.js";

/** git checks a large tree out in seconds; a holder that is still alive past this is waited for no longer. */
const WORKTREE_WAIT_MS = 120_000;
/** pi needs seconds to list its models when the machine is busy; its own time-out is 120 s. */
const LISTING_WAIT_MS = 150_000;

/** Serialises worktree changes of the repository at `root` (keyed by its common git dir) across processes. */
export function worktreeLock(ctx: EngineContext, root: string): Serialize {
  let path: string | undefined;
  return (fn) => {
    path ??= join(
      ctx.home.root,
      "locks",
      `worktrees-${createHash("sha256").update(ctx.git.repositoryKey(root)).digest("hex").slice(0, 16)}.lock`,
    );
    return withLockFile(path, fn, { what: `the worktree list of ${root}`, timeoutMs: WORKTREE_WAIT_MS });
  };
}

/** Single-flight for `pi --list-models`: one process lists, the others wait and read what it cached. */
export function modelListingLock(ctx: EngineContext): Serialize {
  const path = join(ctx.home.root, "locks", "pi-models.lock");
  return (fn) => withLockFile(path, fn, { what: "the pi model listing", timeoutMs: LISTING_WAIT_MS });
}
