// The one way Docket runs git on a worker's tree: the git dir and work tree pinned to paths Docket placed at spawn, a
// private git dir (Docket's own config, HEAD and attributes) over the real object store, and no config a worker can reach.
// Before anything runs, the workspace's `.git` must still be what Docket wrote; otherwise a named refusal and no git at all.

import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { refusal } from "../../domain/errors.js";
import type { WorkerTreeRef } from "../../domain/workers/worker-tree.js";
import { envWithoutGit, gitBinary, neutralArgs } from "./git-binary.js";
import { gitCommonDir, type WorkspaceMethod } from "./worktree.js";

export type { WorkerTreeRef };

/** A worker's tree as Docket placed it: the work tree, its git dir and the object store git may read and write. */
export interface WorkerTree {
  workspace: string;
  gitDir: string;
  objects: string;
  /** The repository's `info/exclude` (the patterns a capture honoured before), copied into the private git dir. */
  exclude: string;
  method: WorkspaceMethod;
}

const commonDirs = new Map<string, string>();

/**
 * The tree's git dir is derived from the human's repository, never read from the workspace: a worktree's admin
 * directory is `<common dir>/worktrees/docket-<worker>` (the name spawn gave it); a copied tree's is its own `.git`.
 */
export function locateWorkerTree(ref: WorkerTreeRef): WorkerTree {
  if (ref.method === "copy") {
    const gitDir = join(ref.workspace, ".git");
    return {
      workspace: ref.workspace,
      gitDir,
      objects: join(gitDir, "objects"),
      exclude: join(gitDir, "info", "exclude"),
      method: "copy",
    };
  }
  let common = commonDirs.get(ref.projectRoot);
  if (common === undefined) {
    common = gitCommonDir(ref.projectRoot);
    commonDirs.set(ref.projectRoot, common);
  }
  return {
    workspace: ref.workspace,
    gitDir: join(common, "worktrees", `docket-${ref.worker}`),
    objects: join(common, "objects"),
    exclude: join(common, "info", "exclude"),
    method: "worktree",
  };
}

function tampered(tree: WorkerTree, what: string): Error {
  return refusal(
    "workspace-git-tampered",
    `${join(tree.workspace, ".git")} is no longer what Docket made at spawn (${what}); Docket ran no git in ${tree.workspace}`,
    "look at what the worker did to its workspace; deleting the worker with --force removes it",
  );
}

const realOrNull = (p: string): string | null => {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
};

/** The workspace is a real directory and its `.git` is exactly Docket's: a `gitdir:` file naming the admin dir, or (copy) a real directory. */
export function assertWorkspaceGit(tree: WorkerTree): void {
  const ws = lstatSync(tree.workspace, { throwIfNoEntry: false });
  if (!ws?.isDirectory()) throw tampered(tree, ws ? "the workspace is not a directory" : "the workspace is gone");
  const dotGit = join(tree.workspace, ".git");
  const st = lstatSync(dotGit, { throwIfNoEntry: false });
  if (!st) throw tampered(tree, ".git is gone");
  if (tree.method === "copy") {
    if (!st.isDirectory()) throw tampered(tree, ".git is no longer a directory");
    return;
  }
  if (st.isSymbolicLink()) throw tampered(tree, ".git is a symbolic link");
  if (st.isDirectory()) throw tampered(tree, ".git was replaced by a directory");
  if (!st.isFile() || st.size > 4096) throw tampered(tree, ".git is not a small regular file");
  const m = /^gitdir: (.+?)\r?\n?$/.exec(readFileSync(dotGit, "utf8"));
  if (!m) throw tampered(tree, ".git does not hold one gitdir line");
  const named = realOrNull(isAbsolute(m[1]!) ? m[1]! : resolve(tree.workspace, m[1]!));
  const admin = realOrNull(tree.gitDir);
  if (admin === null) throw tampered(tree, `its git dir ${tree.gitDir} is gone`);
  if (named !== admin) throw tampered(tree, `.git names ${JSON.stringify(m[1])}, not ${tree.gitDir}`);
}

/** Refuses (`workspace-git-tampered`) when the worker's `.git` is no longer Docket's; runs no git. */
export function checkWorkerTree(ref: WorkerTreeRef): void {
  assertWorkspaceGit(locateWorkerTree(ref));
}

/** Attributes that outrank every other source (a private git dir's `info/attributes`): no filter, diff or merge driver. */
const ATTRIBUTES = { auto: "* !filter !diff !merge\n", binary: "* -diff !filter !merge\n" } as const;

export interface GitRun {
  status: number;
  stdout: Buffer;
  stderr: string;
}

export interface WorkerGit {
  /** Runs git with the pinned, private environment; `index` names the index file (default: a private one). */
  run(args: readonly string[], options?: { input?: string | Buffer; index?: string; maxStdout?: number }): GitRun;
  /** As run, but a non-zero exit throws with git's first line of complaint. */
  must(args: readonly string[], options?: { input?: string | Buffer; index?: string }): Buffer;
  /** A fresh index path inside the private git dir. */
  privateIndex(name: string): string;
  /** Replaces the private git dir's attributes (the only ones git reads): `binary` makes every file a binary diff. */
  setAttributes(kind: keyof typeof ATTRIBUTES): void;
}

interface Scope {
  /** The work tree git may look at; none for work on objects and an index only. */
  workTree?: string;
  /** The object store; none: the private git dir's own, empty one. */
  objects?: string;
  /** An object store read through (never written): a repository's objects under a private store. */
  alternates?: string;
  /** Further variables (an identity for commit-tree). */
  env?: Record<string, string>;
  exclude?: string;
  head: string;
  attributes?: keyof typeof ATTRIBUTES;
}

function privateGitDir(scope: Scope): string {
  const dir = mkdtempSync(join(tmpdir(), "docket-git-"));
  mkdirSync(join(dir, "objects"));
  mkdirSync(join(dir, "refs", "heads"), { recursive: true });
  mkdirSync(join(dir, "info"));
  const sha256 = scope.head.length === 64;
  writeFileSync(join(dir, "HEAD"), `${scope.head}\n`);
  writeFileSync(
    join(dir, "config"),
    `[core]\n\trepositoryformatversion = ${sha256 ? 1 : 0}\n\tbare = ${scope.workTree ? "false" : "true"}\n\tattributesFile = /dev/null\n${
      process.platform === "darwin" ? "\tignorecase = true\n\tprecomposeunicode = true\n" : ""
    }${sha256 ? "[extensions]\n\tobjectFormat = sha256\n" : ""}`,
  );
  writeFileSync(join(dir, "info", "attributes"), ATTRIBUTES[scope.attributes ?? "auto"]);
  if (scope.exclude) copyExclude(scope.exclude, join(dir, "info", "exclude"));
  return dir;
}

/** Ignore patterns only choose which untracked files count; a link or an oversized file is not copied. */
function copyExclude(from: string, to: string): void {
  const st = lstatSync(from, { throwIfNoEntry: false });
  if (st?.isFile() && st.size <= 1024 * 1024) copyFileSync(from, to);
}

function open(scope: Scope): { git: WorkerGit; dispose(): void } {
  const dir = privateGitDir(scope);
  const base = {
    GIT_DIR: dir,
    GIT_OBJECT_DIRECTORY: scope.objects ?? join(dir, "objects"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_PAGER: "cat",
    LC_ALL: "C",
    ...(scope.workTree ? { GIT_WORK_TREE: scope.workTree } : {}),
    ...(scope.alternates ? { GIT_ALTERNATE_OBJECT_DIRECTORIES: scope.alternates } : {}),
    ...scope.env,
  };
  const run: WorkerGit["run"] = (args, options = {}) => {
    const env = envWithoutGit({ ...base, GIT_INDEX_FILE: options.index ?? join(dir, "index") });
    const r = spawnSync(gitBinary(), [...neutralArgs(), ...args], {
      cwd: dir,
      env,
      input: options.input,
      maxBuffer: options.maxStdout ?? 2 * 1024 * 1024 * 1024 - 1, // over it: git is killed, error ENOBUFS
      stdio: ["pipe", "pipe", "pipe"],
    });
    if (r.error) throw r.error;
    return { status: r.status ?? 1, stdout: r.stdout ?? Buffer.alloc(0), stderr: String(r.stderr ?? "") };
  };
  const must: WorkerGit["must"] = (args, options) => {
    const r = run(args, options);
    if (r.status !== 0)
      throw new Error(
        `git ${args.find((a) => !a.startsWith("-")) ?? args[0]} failed: ${r.stderr.trim().split("\n")[0] || `exit ${r.status}`}`,
      );
    return r.stdout;
  };
  const setAttributes = (kind: keyof typeof ATTRIBUTES) =>
    writeFileSync(join(dir, "info", "attributes"), ATTRIBUTES[kind]);
  return {
    git: { run, must, privateIndex: (name) => join(dir, name), setAttributes },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Runs `fn` with git pinned to the worker's tree: `.git` checked first (a named refusal, nothing run, when it changed),
 * then every call with Docket's private git dir, `GIT_WORK_TREE` = the workspace, and the tree's real object store.
 */
export function withWorkerGit<T>(
  tree: WorkerTree,
  options: { base: string; attributes?: "auto" | "binary" },
  fn: (git: WorkerGit) => T,
): T {
  assertWorkspaceGit(tree);
  const scope = open({
    workTree: tree.workspace,
    objects: tree.objects,
    exclude: tree.exclude,
    head: options.base,
    attributes: options.attributes,
  });
  try {
    return fn(scope.git);
  } finally {
    scope.dispose();
  }
}

/** Runs `fn` with git over an object store and a private index only: no work tree, no repository config. */
export function withObjectGit<T>(objects: string | undefined, head: string, fn: (git: WorkerGit) => T): T {
  const scope = open({ objects, head });
  try {
    return fn(scope.git);
  } finally {
    scope.dispose();
  }
}

/**
 * Git over a private object store that reads a repository's objects (`alternates`) and writes only its own, with no
 * work tree and no config or attributes of the repository's: what Combine merges two workers' bytes in. `dispose` deletes it.
 */
export function openScratchGit(
  alternates: string,
  head: string,
  env: Record<string, string> = {},
): { git: WorkerGit; dispose(): void } {
  return open({ alternates, head, env });
}

/** Points the worker's own HEAD at `commit` (detached), by an atomic rename: nothing of git's runs for it. */
export function setWorkerHead(tree: WorkerTree, commit: string): void {
  if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(commit)) throw new Error(`"${commit}" is not a full commit id`);
  assertWorkspaceGit(tree);
  const head = join(tree.gitDir, "HEAD");
  const temp = `${head}.docket-${process.pid}`;
  writeFileSync(temp, `${commit}\n`, { flag: "wx" });
  renameSync(temp, head);
}
