// The git port: every git operation the engine asks for, as one object the EngineContext carries (`ctx.git`).
// The real one runs git; an engine test may pass another. Types stay importable from their modules; the demo's scratch
// repository is made before any engine exists, with substrate/git/init.ts directly.

import { readBlobAt } from "./blob.js";
import { captureChangeSet, freezeCapturedBytes } from "./changes.js";
import { liveChangedPaths, liveChangesExist, liveEqualsFrozen, resetWorkspace } from "./live-tree.js";
import { readFrozenPatch } from "./patch-check.js";
import { checkWorkerTree } from "./worker-git.js";
import { applyPatch, checkPatch, isPatchApplied, parentChangesForEach, checkoutChangedPaths, parentChangesSince, reversePatch } from "./promote.js";
import { measureTreeCopy } from "./tree-copy.js";
import { createIsolatedWorkspace, inspectRepository, removeWorkspace, repositoryKey, repositoryRefs } from "./worktree.js";
import { preparePrivateGitDir } from "./private-git-dir.js";
import { assertMergeTreeGit, withMerge } from "./combine-merge.js";
import { diffTrees, treeWithFiles } from "./merge.js";
import { projectRootOf } from "../project.js";
import { checkoutStamp } from "./checkout-stamp.js";

export interface Git {
  /** The project a command runs in: the git top-level of a directory, or the directory itself. */
  projectRootOf: typeof projectRootOf;
  /** Worker workspaces: a worktree (or a copy) of the project, its removal, and whether it holds live changes. */
  createIsolatedWorkspace: typeof createIsolatedWorkspace;
  /** Outside a repository a workspace is a copy: whether there is one, and how big it would be (measured before spawn writes). */
  inspectRepository: typeof inspectRepository;
  measureTreeCopy: typeof measureTreeCopy;
  removeWorkspace: typeof removeWorkspace;
  liveChangesExist: typeof liveChangesExist;
  repositoryKey: typeof repositoryKey;
  /** A contained worker's own git dir over the repository's objects (read-only), seeded with its refs. */
  preparePrivateGitDir: typeof preparePrivateGitDir;
  repositoryRefs: typeof repositoryRefs;
  /** Freezing: the worker's change set against its base, captured once and checked by git's own reading of the patch. */
  captureChangeSet: typeof captureChangeSet;
  /** The same checks on change bytes captured on a worker's host, against the base in this machine's objects. */
  freezeCapturedBytes: typeof freezeCapturedBytes;
  /** git's reading of frozen patch bytes (files, counts, modes), for re-checking a sidecar's file list before it is applied. */
  readFrozenPatch: typeof readFrozenPatch;
  readBlobAt: typeof readBlobAt;
  /** Promotion into the parent checkout and what the parent changed since a base. */
  checkPatch: typeof checkPatch;
  applyPatch: typeof applyPatch;
  isPatchApplied: typeof isPatchApplied;
  reversePatch: typeof reversePatch;
  parentChangesSince: typeof parentChangesSince;
  parentChangesForEach: typeof parentChangesForEach;
  checkoutChangedPaths: typeof checkoutChangedPaths;
  /** What would change parentChangesForEach's answers, read without running git (a cache's key). */
  checkoutStamp: typeof checkoutStamp;
  /** A worker's live tree after review (git pinned by worker-git): compared with the frozen patch, listed, reset to its base. */
  liveEqualsFrozen: typeof liveEqualsFrozen;
  /** Refuses `workspace-git-tampered` when a worker's `.git` is no longer the one Docket made (no git runs). */
  checkWorkerTree: typeof checkWorkerTree;
  liveChangedPaths: typeof liveChangedPaths;
  resetWorkspace: typeof resetWorkspace;
  /** Combine: two frozen change sets merged in a private object store (git ≥ 2.38), and the resolved tree read back. */
  assertMergeTreeGit: typeof assertMergeTreeGit;
  withMerge: typeof withMerge;
  treeWithFiles: typeof treeWithFiles;
  diffTrees: typeof diffTrees;
}

export const systemGit: Git = {
  projectRootOf, createIsolatedWorkspace, inspectRepository, measureTreeCopy, removeWorkspace, liveChangesExist, repositoryKey, preparePrivateGitDir, repositoryRefs, captureChangeSet, freezeCapturedBytes, readFrozenPatch, readBlobAt, checkPatch, applyPatch, isPatchApplied,
  reversePatch, parentChangesSince, parentChangesForEach, checkoutChangedPaths, checkoutStamp, liveEqualsFrozen, checkWorkerTree, liveChangedPaths, resetWorkspace,
  assertMergeTreeGit, withMerge, treeWithFiles, diffTrees,
};
