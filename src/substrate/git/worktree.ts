// A worker's isolated workspace: a detached git worktree at the parent's HEAD plus its uncommitted and untracked
// files, committed as the "Docket worker baseline" — that commit is the worker's base (docs/decisions/workers.md).
// Adding and removing worktrees runs through the caller's `serialize`: concurrent `git worktree add`s read each
// other's half-made admin directories, so the engine holds one lock per repository around them.

import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { envWithoutGit, filterOverrides, gitBinary, neutralArgs } from "./git-binary.js";
import { copyEntry, copyTree } from "./tree-copy.js";

export type WorkspaceMethod = "worktree" | "copy";

/** Runs `fn` while no other process changes this repository's worktree list (a lock the caller holds). */
export type Serialize = <T>(fn: () => T) => T;

const unserialized: Serialize = (fn) => fn();

export interface IsolatedWorkspace {
  path: string;
  method: WorkspaceMethod;
  /** The baseline commit: every diff of this worker is against it. */
  base: string;
  /** The parent's HEAD at spawn time (null when the parent had none). */
  baseHead: string | null;
  /** Human lines for the spawn summary (what happened, e.g. outside git). */
  notes: string[];
}

const BASELINE_ENV = {
  GIT_AUTHOR_NAME: "Docket",
  GIT_AUTHOR_EMAIL: "docket@example.invalid",
  GIT_COMMITTER_NAME: "Docket",
  GIT_COMMITTER_EMAIL: "docket@example.invalid",
};

/** The human's git in the parent checkout `cwd` (absolute path, neutralised config, no inherited GIT_* variables). */
function git(
  cwd: string,
  args: string[],
  options: { input?: string | Buffer; env?: Record<string, string> } = {},
): string {
  return execFileSync(gitBinary(), [...neutralArgs(), ...filterOverrides(cwd), ...args], {
    cwd,
    encoding: "utf8",
    input: options.input,
    env: envWithoutGit(options.env),
    stdio: ["pipe", "pipe", "pipe"],
    maxBuffer: 1024 * 1024 * 1024,
  });
}

function gitBuffer(cwd: string, args: string[]): Buffer {
  return execFileSync(gitBinary(), [...neutralArgs(), ...filterOverrides(cwd), ...args], {
    cwd,
    env: envWithoutGit(),
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1024 * 1024 * 1024,
  });
}

/**
 * Git on the workspace being made, before any worker runs in it: the git dir and work tree are named, so nothing is
 * discovered from the new tree; cwd is the tree's top so that `git apply` lands its paths there.
 */
function onNewTree(tree: {
  gitDir: string;
  workTree: string;
}): (args: string[], options?: { input?: string | Buffer; env?: Record<string, string> }) => string {
  return (args, options = {}) =>
    git(tree.workTree, [`--git-dir=${tree.gitDir}`, `--work-tree=${tree.workTree}`, ...args], options);
}

/** What the parent directory is, as far as git is concerned. */
export function inspectRepository(dir: string): { kind: "repo"; head: string } | { kind: "unborn" } | { kind: "none" } {
  try {
    git(dir, ["rev-parse", "--git-dir"]);
  } catch {
    return { kind: "none" };
  }
  try {
    return { kind: "repo", head: git(dir, ["rev-parse", "--verify", "-q", "HEAD^{commit}"]).trim() };
  } catch {
    return { kind: "unborn" };
  }
}

/** No hooks, no signing, no auto gc (neutralArgs): a burst of baselines must not start gc (and its worktree prune) in the project. */
function commitBaseline(inTree: ReturnType<typeof onNewTree>): string {
  inTree(["add", "-A"]);
  inTree(["commit", "-q", "--no-verify", "--allow-empty", "-m", "Docket worker baseline"], { env: BASELINE_ENV });
  return inTree(["rev-parse", "HEAD"]).trim();
}

/** Where a done's patch check keeps the index of the worker's base, in the tree's git dir (a base never changes). */
export function baseIndexFile(gitDir: string, base: string): string {
  return join(gitDir, `docket-base-${base}.index`);
}

/**
 * The index the baseline commit was just made from is the base's own index: kept for the first done's patch check,
 * which would otherwise read the base into one (a git process). No worker has run in the tree yet.
 */
function keepBaseIndex(gitDir: string, base: string): void {
  const kept = baseIndexFile(gitDir, base);
  try {
    copyFileSync(join(gitDir, "index"), `${kept}.${process.pid}`);
    renameSync(`${kept}.${process.pid}`, kept);
  } catch {
    rmSync(`${kept}.${process.pid}`, { force: true }); // not kept: the first done reads the base itself
  }
}

/** The repository's common git directory (shared by all its worktrees), absolute. */
export function gitCommonDir(root: string): string {
  // rev-parse reads no file contents, so no filter could run: no lookup of the repository's filter drivers first.
  const out = execFileSync(gitBinary(), [...neutralArgs(), "rev-parse", "--git-common-dir"], {
    cwd: root,
    encoding: "utf8",
    env: envWithoutGit(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return resolve(root, out.trim());
}

/** `<object id> <ref name>` for the repository's branches, tags and remote branches, in ref order. */
export function repositoryRefs(root: string): string {
  return git(root, ["for-each-ref", "--format=%(objectname) %(refname)", "refs/heads", "refs/tags", "refs/remotes"]);
}

/** One name per repository, whichever of its worktrees `root` is: its common git dir, resolved; `root` once it is gone. */
export function repositoryKey(root: string): string {
  try {
    return realpathSync(gitCommonDir(root));
  } catch {
    return root; // the repository is gone (a delete after the fact): its path still names the same lock
  }
}

export interface CreateWorkspaceInput {
  root: string;
  target: string;
  exclude?: string[];
  /** git names the admin directory `.git/worktrees/<name>` after the folder it adds; default: the target's name. */
  adminName?: string;
  serialize?: Serialize;
}

/**
 * Creates `target` as the worker's isolated workspace for the project at `root`.
 * In a repository with a HEAD: worktree + dirty diff + untracked non-ignored files + baseline commit.
 * Unborn repository or no repository: the tree is copied (without `.git`), `git init`, baseline commit.
 */
export function createIsolatedWorkspace(input: CreateWorkspaceInput): IsolatedWorkspace {
  const { root, target } = input;
  const serialize = input.serialize ?? unserialized;
  const repo = inspectRepository(root);
  mkdirSync(dirname(target), { recursive: true });
  if (repo.kind === "repo") {
    addWorktree(root, target, input.adminName, serialize);
    try {
      const gitDir = adminDirOf(root, target, input.adminName);
      const inTree = onNewTree({ gitDir, workTree: target });
      // The checkout fills this worktree's own index and files, nothing another worktree's git reads: no lock.
      inTree(["reset", "--hard", "-q", "HEAD"]);
      const patch = gitBuffer(root, ["diff", "--binary", "--no-ext-diff", "--no-textconv", "HEAD"]);
      if (patch.length > 0) inTree(["apply", "--binary", "--whitespace=nowarn", "-"], { input: patch });
      const untracked = gitBuffer(root, ["ls-files", "--others", "--exclude-standard", "-z"])
        .toString("utf8")
        .split("\0")
        .filter(Boolean);
      for (const rel of untracked) copyEntry(join(root, rel), join(target, rel));
      const base = commitBaseline(inTree);
      keepBaseIndex(gitDir, base);
      return { path: target, method: "worktree", base, baseHead: repo.head, notes: [] };
    } catch (error) {
      removeWorkspace({ root, path: target, method: "worktree", serialize });
      throw error;
    }
  }
  try {
    copyTree(root, target, input.exclude ?? []);
    git(root, ["init", "-q", target]);
    const base = commitBaseline(onNewTree({ gitDir: join(target, ".git"), workTree: target }));
    keepBaseIndex(join(target, ".git"), base);
    const why = repo.kind === "unborn" ? "the repository has no commit yet" : `${root} is not a git repository`;
    return {
      path: target,
      method: "copy",
      base,
      baseHead: null,
      notes: [`Workspace: ${why}; copied the tree (without .git) into ${target} and committed it as the baseline`],
    };
  } catch (error) {
    rmSync(target, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The new worktree's admin directory: `<common dir>/worktrees/<admin name>`. Without a chosen name it is read from the
 * `.git` file `git worktree add` has just written (no worker has run in the tree yet); later calls never read that file.
 */
function adminDirOf(root: string, target: string, adminName: string | undefined): string {
  if (adminName !== undefined) return join(gitCommonDir(root), "worktrees", adminName);
  const m = /^gitdir: (.+?)\r?\n?$/.exec(readFileSync(join(target, ".git"), "utf8"));
  if (!m) throw new Error(`git worktree add left no gitdir line in ${join(target, ".git")}`);
  return resolve(target, m[1]!);
}

/**
 * Registers the worktree without checking files out (the lock is held only that long), under its own admin name:
 * `git worktree add` names the admin directory after the folder, so it adds under the admin name beside the target
 * and moves it into place (a move keeps the name) — every worker's folder is `workspace`, every admin name its own.
 */
function addWorktree(root: string, target: string, adminName: string | undefined, serialize: Serialize): void {
  const staging = adminName === undefined || adminName === basename(target) ? target : join(dirname(target), adminName);
  serialize(() => {
    git(root, ["worktree", "add", "--detach", "--no-checkout", "-q", staging, "HEAD"]);
    if (staging === target) return;
    try {
      git(root, ["worktree", "move", staging, target]);
    } catch (error) {
      dropWorktree(root, staging);
      throw error;
    }
  });
}

function dropWorktree(root: string, path: string): void {
  try {
    git(root, ["worktree", "remove", "--force", "--force", path]);
  } catch {
    // The worktree may be half-made or already removed: delete the directory and prune git's record below.
  }
  rmSync(path, { recursive: true, force: true, maxRetries: 3 });
  try {
    git(root, ["worktree", "prune"]);
  } catch {
    // The parent repository itself may be gone; nothing left to unregister then.
  }
}

/** Removes a workspace this module created; a worktree is unregistered from its repository too. */
export function removeWorkspace(input: {
  root: string;
  path: string;
  method: WorkspaceMethod;
  serialize?: Serialize;
}): void {
  if (input.method === "worktree") {
    (input.serialize ?? unserialized)(() => dropWorktree(input.root, input.path));
    return;
  }
  rmSync(input.path, { recursive: true, force: true, maxRetries: 3 });
}
