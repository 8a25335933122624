// The git port: every git operation the engine asks for, as one object the EngineContext carries (`ctx.git`), grouped
// by job into narrow interfaces so a use-case (or a test's in-memory git) can name only the part it needs. The real one
// runs git; the demo's scratch repository is made before any engine exists, with substrate/git/init.ts directly.

import type { ChangeSet } from "../../domain/deliverables/deliverable.js";
import type { PatchIntegrity } from "../../domain/deliverables/patch-integrity.js";
import type { WorkerTreeRef } from "../../domain/workers/worker-tree.js";
import { lazyModule } from "../require-esm.js";
import type { BlobRead } from "./blob.js";
import type { CaptureChangeSetInput } from "./changes.js";
import type { CaptureJob } from "./capture-off-loop.js";
import { liveChangedPaths, liveChangesExist, liveEqualsFrozen, resetWorkspace } from "./live-tree.js";
import {
  applyPatch,
  checkPatch,
  isPatchApplied,
  parentChangesForEach,
  checkoutChangedPaths,
  parentChangesSince,
  reversePatch,
  type ParentAnswer,
  type ParentChange,
  type ParentQuery,
  type PatchCheck,
} from "./promote.js";
import type { TreeMeasure } from "./tree-copy.js";
import type { CreateWorkspaceInput, IsolatedWorkspace, Serialize, WorkspaceMethod } from "./worktree.js";
import type { PrivateGitSource } from "./private-git-dir.js";
import type { MergeOutcome, MergeSource } from "./combine-merge.js";
import type { MergeWorkspace, TreeDiff } from "./merge.js";
import { checkoutStamp, type CheckoutStamp } from "./checkout-stamp.js";
import { projectRootOf } from "../project.js";

/** Worker workspaces: a worktree (or a copy) of the project, its removal, its repository's identity and refs. */
export interface GitWorkspaces {
  /** The project a command runs in: the git top-level of a directory, or the directory itself. */
  projectRootOf(cwd: string): string;
  createIsolatedWorkspace(input: CreateWorkspaceInput): IsolatedWorkspace;
  /** Outside a repository a workspace is a copy: whether there is one, and how big it would be (measured first). */
  inspectRepository(dir: string): { kind: "repo"; head: string } | { kind: "unborn" } | { kind: "none" };
  measureTreeCopy(root: string, exclude: readonly string[], limits?: { files: number; bytes: number }): TreeMeasure;
  removeWorkspace(input: { root: string; path: string; method: WorkspaceMethod; serialize?: Serialize }): void;
  /** Whether a worker's workspace holds changes against its base (a delete asks before dropping them). */
  liveChangesExist(ref: WorkerTreeRef, base: string): boolean;
  repositoryKey(root: string): string;
  /** A contained worker's own git dir over the repository's objects (read-only), seeded with its refs. */
  preparePrivateGitDir(dir: string, workspace: string, source: PrivateGitSource): void;
  repositoryRefs(root: string): string;
}

/** Freezing: a worker's change set against its base, captured once and checked by git's own reading of the patch. */
export interface GitFreezing {
  captureChangeSet(input: CaptureChangeSetInput): ChangeSet;
  /** captureChangeSet (or, for a worker on a host, its bytes fetched and checked) in a thread: the caller's loop runs on. */
  captureOffLoop(job: CaptureJob): Promise<ChangeSet>;
  /** Starts the thread a first captureOffLoop would wait for, idle (a door does once a worker calls it). */
  readyCaptureThread(): void;
  /** The same checks on change bytes captured on a worker's host, against the base in this machine's objects. */
  freezeCapturedBytes(input: CaptureChangeSetInput, raw: Buffer): ChangeSet;
  /** git's reading of frozen patch bytes (files, counts, modes), to re-check a sidecar's file list before applying. */
  readFrozenPatch(patch: string): PatchIntegrity;
  readBlobAt(repo: string, commit: string, path: string, expectBlob?: string): BlobRead;
}

/** Promotion into the parent checkout, and what the parent changed since a base. */
export interface GitPromotion {
  checkPatch(repoRoot: string, patch: string): PatchCheck;
  applyPatch(repoRoot: string, patch: string): PatchCheck;
  isPatchApplied(repoRoot: string, patch: string): boolean;
  reversePatch(repoRoot: string, patch: string): boolean;
  parentChangesSince(
    repoRoot: string,
    refs: { base: string | null; baseHead: string | null },
    paths: string[],
  ): ParentChange[] | undefined;
  parentChangesForEach(repoRoot: string, queries: readonly ParentQuery[]): ParentAnswer[];
  checkoutChangedPaths(repoRoot: string): string[];
  /** What would change parentChangesForEach's answers, read without running git (a cache's key). */
  checkoutStamp(repoRoot: string): CheckoutStamp | undefined;
}

/** A worker's live tree after review (git pinned by worker-git): compared with the frozen patch, listed, reset. */
export interface GitLiveTree {
  liveEqualsFrozen(ref: WorkerTreeRef, base: string, patch: string): boolean;
  /** Refuses `workspace-git-tampered` when a worker's `.git` is no longer the one Docket made (no git runs). */
  checkWorkerTree(ref: WorkerTreeRef): void;
  liveChangedPaths(ref: WorkerTreeRef, base: string): string[];
  resetWorkspace(ref: WorkerTreeRef, base: string): void;
}

/** Combine: two frozen change sets merged in a private object store (git ≥ 2.38), and the resolved tree read back. */
export interface GitCombine {
  assertMergeTreeGit(version?: string): void;
  withMerge<R>(
    repo: string,
    a: MergeSource,
    b: MergeSource,
    use: (m: MergeOutcome, ws: MergeWorkspace) => R,
    options?: { dry?: boolean },
  ): R;
  treeWithFiles(
    ws: MergeWorkspace,
    tree: string,
    files: readonly { path: string; mode: string; bytes: Buffer | null }[],
  ): string;
  diffTrees(ws: MergeWorkspace, from: string, to: string): TreeDiff;
}

/** Every git operation the engine asks for. */
export type Git = GitWorkspaces & GitFreezing & GitPromotion & GitLiveTree & GitCombine;

// What a review asks on every look (the project root, the parent's changes) loads with this module; every other job's
// module loads on its first call (`require` of an ES module).
const blob = lazyModule<typeof import("./blob.js")>(import.meta.url, "./blob.js");
const changes = lazyModule<typeof import("./changes.js")>(import.meta.url, "./changes.js");
const offLoop = lazyModule<typeof import("./capture-off-loop.js")>(import.meta.url, "./capture-off-loop.js");
const patchCheck = lazyModule<typeof import("./patch-check.js")>(import.meta.url, "./patch-check.js");
const workerGit = lazyModule<typeof import("./worker-git.js")>(import.meta.url, "./worker-git.js");
const treeCopy = lazyModule<typeof import("./tree-copy.js")>(import.meta.url, "./tree-copy.js");
const worktree = lazyModule<typeof import("./worktree.js")>(import.meta.url, "./worktree.js");
const privateGitDir = lazyModule<typeof import("./private-git-dir.js")>(import.meta.url, "./private-git-dir.js");
const combineMerge = lazyModule<typeof import("./combine-merge.js")>(import.meta.url, "./combine-merge.js");
const merge = lazyModule<typeof import("./merge.js")>(import.meta.url, "./merge.js");

export const systemGit: Git = {
  projectRootOf,
  createIsolatedWorkspace: (input) => worktree().createIsolatedWorkspace(input),
  inspectRepository: (dir) => worktree().inspectRepository(dir),
  measureTreeCopy: (root, exclude, limits) => treeCopy().measureTreeCopy(root, exclude, limits),
  removeWorkspace: (input) => worktree().removeWorkspace(input),
  liveChangesExist,
  repositoryKey: (root) => worktree().repositoryKey(root),
  preparePrivateGitDir: (dir, workspace, source) => privateGitDir().preparePrivateGitDir(dir, workspace, source),
  repositoryRefs: (root) => worktree().repositoryRefs(root),
  captureChangeSet: (input) => changes().captureChangeSet(input),
  captureOffLoop: (job) => offLoop().captureOffLoop(job),
  readyCaptureThread: () => offLoop().readyCaptureThread(),
  freezeCapturedBytes: (input, raw) => changes().freezeCapturedBytes(input, raw),
  readFrozenPatch: (patch) => patchCheck().readFrozenPatch(patch),
  readBlobAt: (repo, commit, path, expectBlob) => blob().readBlobAt(repo, commit, path, expectBlob),
  checkPatch,
  applyPatch,
  isPatchApplied,
  reversePatch,
  parentChangesSince,
  parentChangesForEach,
  checkoutChangedPaths,
  checkoutStamp,
  liveEqualsFrozen,
  checkWorkerTree: (ref) => workerGit().checkWorkerTree(ref),
  liveChangedPaths,
  resetWorkspace,
  assertMergeTreeGit: (version) => combineMerge().assertMergeTreeGit(version),
  withMerge: (repo, a, b, use, options) => combineMerge().withMerge(repo, a, b, use, options),
  treeWithFiles: (ws, tree, files) => merge().treeWithFiles(ws, tree, files),
  diffTrees: (ws, from, to) => merge().diffTrees(ws, from, to),
};
