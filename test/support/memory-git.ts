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

/** A git of one project at `root` (a real, empty directory: the engine probes paths), its HEAD holding `files`. */
export function memoryGit(root: string, files: Record<string, string>): MemoryGit {
  let made = 0;
  const repo: MemoryRepo = { root, head: "", commits: new Map(), tree: new Map(Object.entries(files)) };
  const workspaces = new Map<string, MemoryWorkspace>();
  const commitOf = (tree: Files): string => {
    const entries = sorted(tree.keys()).map((p) => `${p}\0${blobId(tree.get(p)!)}`);
    const id = createHash("sha1").update(`${made++}\n${entries.join("\n")}`).digest("hex");
    repo.commits.set(id, new Map(tree));
    return id;
  };
  repo.head = commitOf(repo.tree);
  const repoAt = (dir: string): MemoryRepo => {
    if (dir !== root) throw new Error(`${dir} is not the in-memory project ${root}`);
    return repo;
  };
  const filesAt = (commit: string): Files => {
    const tree = repo.commits.get(commit);
    if (!tree) throw new Error(`commit ${commit.slice(0, 12)} is not in the in-memory project ${root}`);
    return tree;
  };
  const workspaceOf = (ref: WorkerTreeRef): MemoryWorkspace => {
    const ws = workspaces.get(ref.workspace);
    if (!ws) throw new Error(`${ref.workspace} is not an in-memory workspace of ${root}`);
    return ws;
  };
  const check = (dir: string, patch: string, reverse = false): PatchCheck => {
    const r = applyTo(repoAt(dir).tree, patch, reverse);
    if (r.ok) return { ok: true };
    const stderr = r.problems.map((p) => `error: ${p.path}: ${p.reason}\n`).join("");
    return { ok: false, problems: r.problems, stderr };
  };
  const apply = (dir: string, patch: string, reverse = false): PatchCheck => {
    const r = applyTo(repoAt(dir).tree, patch, reverse);
    if (r.ok) repo.tree = r.files;
    return r.ok ? { ok: true } : check(dir, patch, reverse);
  };
  const readFrozenPatch: Git["readFrozenPatch"] = (patch) => resolvePatchIntegrity(patch, readingOf(patch));
  const parentChanges = (rev: string, paths: readonly string[]): ParentChange[] => {
    const at = filesAt(rev);
    const tracked = filesAt(repo.head);
    return changedPaths(at, repo.tree).filter((p) => under(p, paths)).map((path) => ({
      path, status: !repo.tree.has(path) ? "D" : at.has(path) ? "M" : tracked.has(path) ? "A" : "?",
    }));
  };
  const knownRev = (refs: { base: string | null; baseHead: string | null }): string | undefined =>
    [refs.base, refs.baseHead].find((r): r is string => r !== null && repo.commits.has(r));

  const impl: Git = {
    projectRootOf: (cwd) => (cwd === root || cwd.startsWith(`${root}/`) ? root : cwd),
    inspectRepository: (dir) => (dir === root ? { kind: "repo", head: repo.head } : { kind: "none" }),
    repositoryKey: (dir) => dir,
    repositoryRefs: (dir) => `${repoAt(dir).head} refs/heads/main\n`,
    createIsolatedWorkspace: (input) => {
      repoAt(input.root);
      // As spawn's worktree: HEAD plus the checkout's uncommitted files, committed as the worker's baseline.
      const base = commitOf(repo.tree);
      workspaces.set(input.target, { path: input.target, base, files: new Map(repo.tree) });
      mkdirSync(input.target, { recursive: true });
      return { path: input.target, method: "worktree", base, baseHead: repo.head, notes: [] };
    },
    removeWorkspace: (input) => {
      workspaces.delete(input.path);
      rmSync(input.path, { recursive: true, force: true });
    },
    liveChangesExist: (ref, base) =>
      workspaces.has(ref.workspace) && changedPaths(filesAt(base), workspaceOf(ref).files).length > 0,
    liveChangedPaths: (ref, base) => changedPaths(filesAt(base), workspaceOf(ref).files),
    liveEqualsFrozen: (ref, base, patch) => {
      const frozen = applyTo(filesAt(base), patch);
      return frozen.ok && sameTree(frozen.files, workspaceOf(ref).files);
    },
    resetWorkspace: (ref, base) => void (workspaceOf(ref).files = new Map(filesAt(base))),
    checkWorkerTree: (ref) => void workspaceOf(ref),
    captureChangeSet: (input) => {
      const base = filesAt(input.base);
      const live = workspaceOf(input.tree).files;
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
    },
    readFrozenPatch,
    readBlobAt: (dir, commit, path, expectBlob) => {
      const text = repoAt(dir).commits.get(commit)?.get(path);
      const at = commit.slice(0, 12);
      if (text === undefined) return { ok: false, reason: `${path} is not in commit ${at} in ${dir}` };
      const id = blobId(text);
      if (expectBlob !== undefined && !id.startsWith(expectBlob)) {
        const blob = id.slice(0, 12);
        return { ok: false, reason: `${path} at ${at} is blob ${blob}, not ${expectBlob} as the patch says` };
      }
      return { ok: true, id, bytes: Buffer.from(text, "utf8") };
    },
    checkPatch: (dir, patch) => check(dir, patch),
    applyPatch: (dir, patch) => apply(dir, patch),
    isPatchApplied: (dir, patch) => check(dir, patch, true).ok,
    reversePatch: (dir, patch) => check(dir, patch, true).ok && apply(dir, patch, true).ok,
    parentChangesSince: (dir, refs, paths) => {
      repoAt(dir);
      const rev = knownRev(refs);
      return rev === undefined ? undefined : parentChanges(rev, paths);
    },
    parentChangesForEach: (dir, queries) => {
      repoAt(dir);
      return queries.map((q) => {
        const rev = q.paths.length === 0 ? "" : knownRev(q);
        return { ok: true, changes: rev === undefined ? undefined : rev === "" ? [] : parentChanges(rev, q.paths) };
      });
    },
    checkoutChangedPaths: (dir) => changedPaths(filesAt(repoAt(dir).head), repo.tree),
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
  const calls: (keyof Git)[] = [];
  const recorded = Object.fromEntries(Object.entries(impl).map(([name, fn]) => [name, (...args: unknown[]) => {
    calls.push(name as keyof Git);
    return (fn as (...a: unknown[]) => unknown)(...args);
  }])) as unknown as Git;
  return {
    ...recorded, repo, workspaces, calls,
    commit: () => (repo.head = commitOf(repo.tree)),
    workspace: (path) => workspaceOf({ workspace: path } as WorkerTreeRef),
  };
}
