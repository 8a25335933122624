// A worker's live tree after review: compared with its frozen patch, listed, checked for changes, reset to its base.
// Every git call goes through worker-git (pinned git dir and work tree, private config); none has the workspace as cwd.

import { copyFileSync, existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { privateGitDirOf, resetPrivateGitDir } from "./private-git-dir.js";
import {
  locateWorkerTree,
  setWorkerHead,
  withWorkerGit,
  type WorkerGit,
  type WorkerTree,
  type WorkerTreeRef,
} from "./worker-git.js";

/** A private index seeded from the worktree's own (git's stat cache, so `add -A` hashes only changed files). */
function seededIndex(tree: WorkerTree, git: WorkerGit): string {
  const index = git.privateIndex("live.index");
  const own = join(tree.gitDir, "index");
  if (lstatSync(own, { throwIfNoEntry: false })?.isFile()) copyFileSync(own, index);
  return index; // no index yet (fresh worktree): git builds one from scratch; only speed is lost
}

function liveTreeOf(tree: WorkerTree, git: WorkerGit): string {
  const index = seededIndex(tree, git);
  git.must(["add", "-A", "--", "."], { index });
  return git.must(["write-tree"], { index }).toString("utf8").trim();
}

/** The tree that `base` + the frozen patch produce, computed in a private index (no working-tree writes). */
function frozenTreeOf(git: WorkerGit, base: string, patch: string): string | undefined {
  const index = git.privateIndex("frozen.index");
  git.must(["read-tree", base], { index });
  if (patch !== "" && git.run(["apply", "--cached", "--whitespace=nowarn", "-"], { input: patch, index }).status !== 0)
    return undefined;
  return git.must(["write-tree"], { index }).toString("utf8").trim();
}

/** True when the worker's live workspace still holds exactly base + frozen patch (no later edits). */
export function liveEqualsFrozen(ref: WorkerTreeRef, base: string, patch: string): boolean {
  const tree = locateWorkerTree(ref);
  return withWorkerGit(tree, { base }, (git) => {
    const frozen = frozenTreeOf(git, base, patch);
    return frozen !== undefined && frozen === liveTreeOf(tree, git);
  });
}

/** Files in the workspace that differ from `base` (tracked changes and untracked, non-ignored files). */
export function liveChangedPaths(ref: WorkerTreeRef, base: string): string[] {
  const tree = locateWorkerTree(ref);
  return withWorkerGit(tree, { base }, (git) => {
    const index = seededIndex(tree, git);
    git.must(["add", "-A", "--", "."], { index });
    return git
      .must(["diff", "--cached", "--name-only", "--no-renames", "--no-ext-diff", "--no-textconv", "-z", base, "--"], {
        index,
      })
      .toString("utf8")
      .split("\0")
      .filter((s) => s !== "");
  });
}

/** True when the workspace differs from its base: tracked edits, new commits, or untracked non-ignored files. */
export function liveChangesExist(ref: WorkerTreeRef, base: string): boolean {
  if (!existsSync(ref.workspace)) return false;
  return liveChangedPaths(ref, base).length > 0;
}

/**
 * Puts the workspace back at `base`: the worktree's own index and files reset, untracked non-ignored files removed
 * (ignored files stay), and its HEAD detached at `base`.
 */
export function resetWorkspace(ref: WorkerTreeRef, base: string): void {
  const tree = locateWorkerTree(ref);
  withWorkerGit(tree, { base }, (git) => {
    const index = join(tree.gitDir, "index");
    git.must(["reset", "-q", "--hard", base], { index });
    git.must(["clean", "-fdq"], { index });
  });
  setWorkerHead(tree, base);
  if (ref.method === "worktree") resetPrivateGitDir(privateGitDirOf(ref.workspace), base, join(tree.gitDir, "index"));
}
