// An in-memory git for engine tests of review and promotion (beside memory-tmux.ts): one project's commits and working
// tree as file maps, worker workspaces as copies, patches from memory-diff.ts; no process ever starts. Not in it, and
// refused with a named error: combine (assertMergeTreeGit refuses as a too-old git does; withMerge, treeWithFiles,
// diffTrees), a contained worker's private git dir, a host's captured bytes (freezeCapturedBytes), the copy measure,
// binary files and quoted paths.
// Its patches are the bytes real git captures (memory-git-parity.test.ts), but it reads them with the domain's own
// parser, so a forged patch is not caught here as git catches it: the hostile-patch tests stay on real git.

import { createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { formatStat } from "../../src/domain/deliverables/change-set.js";
import { resolvePatchIntegrity } from "../../src/domain/deliverables/patch-integrity.js";
import { refusal } from "../../src/domain/errors.js";
import type { WorkerTreeRef } from "../../src/domain/workers/worker-tree.js";
import type { Git } from "../../src/substrate/git/port.js";
import type { ParentChange, PatchCheck } from "../../src/substrate/git/promote.js";
import { applyTo, blobId, diffFiles, readingOf, type Files } from "./memory-diff.js";

export interface MemoryRepo {
  root: string;
  head: string;
  commits: Map<string, Files>;
  /** The checkout's working tree (there is no index: a path not in HEAD is untracked). */
  tree: Files;
}

export interface MemoryWorkspace {
  path: string;
  base: string;
  files: Files;
}

export interface MemoryGit extends Git {
  repo: MemoryRepo;
  workspaces: Map<string, MemoryWorkspace>;
  /** Every port method the engine called, in order: proof that it went through `ctx.git`. */
  calls: (keyof Git)[];
  /** Records the working tree as a new HEAD commit; returns its id. */
  commit(): string;
  workspace(path: string): MemoryWorkspace;
}

const notInMemory = (name: string) => (): never => {
  throw new Error(`${name} is not in the in-memory git (test/support/memory-git.ts); test it over a real repository`);
};

const sorted = (paths: Iterable<string>): string[] => [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const under = (path: string, specs: readonly string[]): boolean =>
  specs.some((s) => path === s || path.startsWith(s.endsWith("/") ? s : `${s}/`));

/** Paths whose content differs between two trees. */
function changedPaths(a: Files, b: Files): string[] {
  return sorted(new Set([...a.keys(), ...b.keys()])).filter((p) => a.get(p) !== b.get(p));
}

function sameTree(a: Files, b: Files): boolean {
  return changedPaths(a, b).length === 0;
}

/** The project and its workspaces, with the lookups every group of the port shares. */
interface Memory {
  repo: MemoryRepo;
  workspaces: Map<string, MemoryWorkspace>;
  commitOf(tree: Files): string;
  repoAt(dir: string): MemoryRepo;
  filesAt(commit: string): Files;
  workspaceOf(ref: Pick<WorkerTreeRef, "workspace">): MemoryWorkspace;
}

function memoryOf(root: string, files: Record<string, string>): Memory {
  let made = 0;
  const repo: MemoryRepo = { root, head: "", commits: new Map(), tree: new Map(Object.entries(files)) };
  const workspaces = new Map<string, MemoryWorkspace>();
  const m: Memory = {
    repo,
    workspaces,
    commitOf: (tree) => {
      const entries = sorted(tree.keys()).map((p) => `${p}\0${blobId(tree.get(p)!)}`);
      const id = createHash("sha1")
        .update(`${made++}\n${entries.join("\n")}`)
        .digest("hex");
      repo.commits.set(id, new Map(tree));
      return id;
    },
    repoAt: (dir) => {
      if (dir !== root) throw new Error(`${dir} is not the in-memory project ${root}`);
      return repo;
    },
    filesAt: (commit) => {
      const tree = repo.commits.get(commit);
      if (!tree) throw new Error(`commit ${commit.slice(0, 12)} is not in the in-memory project ${root}`);
      return tree;
    },
    workspaceOf: (ref) => {
      const ws = workspaces.get(ref.workspace);
      if (!ws) throw new Error(`${ref.workspace} is not an in-memory workspace of ${root}`);
      return ws;
    },
  };
  repo.head = m.commitOf(repo.tree);
  return m;
}

type Workspaces = Pick<
  Git,
  | "projectRootOf"
  | "inspectRepository"
  | "repositoryKey"
  | "repositoryRefs"
  | "createIsolatedWorkspace"
  | "removeWorkspace"
  | "liveChangesExist"
>;

function workspacesOf(m: Memory): Workspaces {
  const { repo, workspaces } = m;
  return {
    projectRootOf: (cwd) => (cwd === repo.root || cwd.startsWith(`${repo.root}/`) ? repo.root : cwd),
    inspectRepository: (dir) => (dir === repo.root ? { kind: "repo", head: repo.head } : { kind: "none" }),
    repositoryKey: (dir) => dir,
    repositoryRefs: (dir) => `${m.repoAt(dir).head} refs/heads/main\n`,
    createIsolatedWorkspace: (input) => {
      m.repoAt(input.root);
      // As spawn's worktree: HEAD plus the checkout's uncommitted files, committed as the worker's baseline.
      const base = m.commitOf(repo.tree);
      workspaces.set(input.target, { path: input.target, base, files: new Map(repo.tree) });
      mkdirSync(input.target, { recursive: true });
      return { path: input.target, method: "worktree", base, baseHead: repo.head, notes: [] };
    },
    removeWorkspace: (input) => {
      workspaces.delete(input.path);
      rmSync(input.path, { recursive: true, force: true });
    },
    liveChangesExist: (ref, base) =>
      workspaces.has(ref.workspace) && changedPaths(m.filesAt(base), m.workspaceOf(ref).files).length > 0,
  };
}

function freezingOf(
  m: Memory,
): Pick<Git, "captureChangeSet" | "captureOffLoop" | "readyCaptureThread" | "readFrozenPatch" | "readBlobAt"> {
  const readFrozenPatch: Git["readFrozenPatch"] = (patch) => resolvePatchIntegrity(patch, readingOf(patch));
  const captureChangeSet: Git["captureChangeSet"] = (input) => {
    const base = m.filesAt(input.base);
    const live = m.workspaceOf(input.tree).files;
    const patch = diffFiles(base, live);
    const read = readFrozenPatch(patch);
    if (!read.ok) {
      const why = `the change set of ${input.tree.worker} cannot be frozen: ${read.reason}; nothing was frozen`;
      throw refusal("patch-integrity-failed", why);
    }
    const again = applyTo(base, patch);
    if (!again.ok || !sameTree(again.files, live)) {
      throw new Error(`the in-memory diff of ${input.tree.worker} does not rebuild its workspace`);
    }
    const { files, hunks } = read;
    return { ref: input.ref, base: input.base, files, stat: formatStat(files), hunks, patch };
  };
  return {
    captureChangeSet,
    captureOffLoop: async (job) => captureChangeSet(job.input),
    readyCaptureThread: () => {},
    readFrozenPatch,
    readBlobAt: (dir, commit, path, expectBlob) => {
      const text = m.repoAt(dir).commits.get(commit)?.get(path);
      const at = commit.slice(0, 12);
      if (text === undefined) return { ok: false, reason: `${path} is not in commit ${at} in ${dir}` };
      const id = blobId(text);
      if (expectBlob !== undefined && !id.startsWith(expectBlob)) {
        const blob = id.slice(0, 12);
        return { ok: false, reason: `${path} at ${at} is blob ${blob}, not ${expectBlob} as the patch says` };
      }
      return { ok: true, id, bytes: Buffer.from(text, "utf8") };
    },
  };
}

type Promotion = Pick<
  Git,
  | "checkPatch"
  | "applyPatch"
  | "isPatchApplied"
  | "reversePatch"
  | "parentChangesSince"
  | "parentChangesForEach"
  | "checkoutChangedPaths"
  | "checkoutStamp"
>;

function promotionOf(m: Memory): Promotion {
  const { repo } = m;
  const check = (dir: string, patch: string, reverse = false): PatchCheck => {
    const r = applyTo(m.repoAt(dir).tree, patch, reverse);
    if (r.ok) return { ok: true };
    const stderr = r.problems.map((p) => `error: ${p.path}: ${p.reason}\n`).join("");
    return { ok: false, problems: r.problems, stderr };
  };
  const apply = (dir: string, patch: string, reverse = false): PatchCheck => {
    const r = applyTo(m.repoAt(dir).tree, patch, reverse);
    if (r.ok) repo.tree = r.files;
    return r.ok ? { ok: true } : check(dir, patch, reverse);
  };
  // As git: tracked files that differ from `rev` (M, A, D), then files HEAD does not hold (`?`, untracked).
  const parentChanges = (rev: string, paths: readonly string[]): ParentChange[] => {
    const at = m.filesAt(rev);
    const tracked = m.filesAt(repo.head);
    return changedPaths(at, repo.tree)
      .filter((p) => under(p, paths))
      .map((path) => ({
        path,
        status: !repo.tree.has(path) ? "D" : at.has(path) ? "M" : tracked.has(path) ? "A" : "?",
      }));
  };
  const knownRev = (refs: { base: string | null; baseHead: string | null }): string | undefined =>
    [refs.base, refs.baseHead].find((r): r is string => r !== null && repo.commits.has(r));
  return {
    checkPatch: (dir, patch) => check(dir, patch),
    applyPatch: (dir, patch) => apply(dir, patch),
    isPatchApplied: (dir, patch) => check(dir, patch, true).ok,
    reversePatch: (dir, patch) => check(dir, patch, true).ok && apply(dir, patch, true).ok,
    parentChangesSince: (dir, refs, paths) => {
      m.repoAt(dir);
      const rev = knownRev(refs);
      return rev === undefined ? undefined : parentChanges(rev, paths);
    },
    parentChangesForEach: (dir, queries) => {
      m.repoAt(dir);
      return queries.map((q) => {
        const rev = q.paths.length === 0 ? "" : knownRev(q);
        return { ok: true, changes: rev === undefined ? undefined : rev === "" ? [] : parentChanges(rev, q.paths) };
      });
    },
    checkoutChangedPaths: (dir) => changedPaths(m.filesAt(m.repoAt(dir).head), repo.tree),
    checkoutStamp: () => undefined, // no stamp: the queue asks the memory parent every time
  };
}

type LiveTree = Pick<Git, "liveEqualsFrozen" | "checkWorkerTree" | "liveChangedPaths" | "resetWorkspace">;

function liveTreeOf(m: Memory): LiveTree {
  return {
    liveEqualsFrozen: (ref, base, patch) => {
      const frozen = applyTo(m.filesAt(base), patch);
      return frozen.ok && sameTree(frozen.files, m.workspaceOf(ref).files);
    },
    checkWorkerTree: (ref) => void m.workspaceOf(ref),
    liveChangedPaths: (ref, base) => changedPaths(m.filesAt(base), m.workspaceOf(ref).files),
    resetWorkspace: (ref, base) => void (m.workspaceOf(ref).files = new Map(m.filesAt(base))),
  };
}

const OUTSIDE: Pick<
  Git,
  | "measureTreeCopy"
  | "preparePrivateGitDir"
  | "freezeCapturedBytes"
  | "assertMergeTreeGit"
  | "withMerge"
  | "treeWithFiles"
  | "diffTrees"
> = {
  measureTreeCopy: notInMemory("measureTreeCopy"),
  preparePrivateGitDir: notInMemory("preparePrivateGitDir"),
  freezeCapturedBytes: notInMemory("freezeCapturedBytes"),
  // A refusal, as on a machine whose git is too old: a card over overlapping workers says it cannot combine.
  assertMergeTreeGit: () => {
    const why = "Combine (merge-tree) is not in the in-memory git; nothing changed";
    throw refusal("combine-not-in-memory", why, "test it over a real repository");
  },
  withMerge: notInMemory("withMerge"),
  treeWithFiles: notInMemory("treeWithFiles"),
  diffTrees: notInMemory("diffTrees"),
};

/** A git of one project at `root` (a real, empty directory: the engine probes paths), its HEAD holding `files`. */
export function memoryGit(root: string, files: Record<string, string>): MemoryGit {
  const m = memoryOf(root, files);
  const impl: Git = { ...workspacesOf(m), ...freezingOf(m), ...promotionOf(m), ...liveTreeOf(m), ...OUTSIDE };
  const calls: (keyof Git)[] = [];
  const recorded = Object.fromEntries(
    Object.entries(impl).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        calls.push(name as keyof Git);
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as Git;
  return {
    ...recorded,
    repo: m.repo,
    workspaces: m.workspaces,
    calls,
    commit: () => (m.repo.head = m.commitOf(m.repo.tree)),
    workspace: (path) => m.workspaceOf({ workspace: path }),
  };
}
