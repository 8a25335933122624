// Captures a worker's change set once: everything in its workspace against its base, as a binary-safe patch.
// Git runs through worker-git (pinned, private config) with a private index kept beside the worktree's, so the worker's own
// staging area is never touched; the file list is then derived from the patch bytes by patch-check, not from the capture.

import { copyFileSync, renameSync, rmSync, statSync, utimesSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { ChangeSet } from "../../domain/deliverables/deliverable.js";
import { formatStat, parseNumstatPatch } from "../../domain/deliverables/change-set.js";
import { sameFiles } from "../../domain/deliverables/patch-integrity.js";
import { refusal } from "../../domain/errors.js";
import { changeSetTooLarge } from "../../domain/door-limits.js";
import { checkFrozenPatch } from "./patch-check.js";
import { locateWorkerTree, withWorkerGit, type WorkerGit, type WorkerTreeRef } from "./worker-git.js";
import { baseIndexFile } from "./worktree.js";

export interface CaptureChangeSetInput {
  /** The worker's workspace as the ledger records it (its git dir is derived from the project, never read from it). */
  tree: WorkerTreeRef;
  /** The worker's base commit: every diff of the worker is against it. */
  base: string;
  /** `worker-changes:<w>:<N>`. */
  ref: string;
  /** The most bytes the capture may read from git (numstat and patch); over it, `change-set-too-large`. */
  maxPatchBytes?: number;
}

const DIFF_FLAGS = [
  "diff",
  "--cached",
  "--binary",
  "--numstat",
  "-z",
  "-p",
  "--no-renames",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

/**
 * `git add -A` into Docket's private index for this worktree (so unchanged files hit the stat cache), then one
 * `git diff --cached --binary --numstat -z -p <base>`; then the patch is checked on its own (git's reading of the bytes,
 * applied to the base in a private index) and the file list, stat and hunk count are taken from that check.
 */
export function captureChangeSet(input: CaptureChangeSetInput): ChangeSet {
  const tree = locateWorkerTree(input.tree);
  // One private git dir for the capture and the check: setting one up costs about as much as a git process.
  return withWorkerGit(tree, { base: input.base }, (git) => {
    let raw = capture(git, tree, input);
    // Some file is not UTF-8: a text patch would not survive JSON. Freeze every file as a git binary patch instead.
    if (!isUtf8Text(raw)) {
      git.setAttributes("binary");
      raw = capture(git, tree, input);
      git.setAttributes("auto"); // the check decodes text frozen as binary with a text diff
    }
    return checkCapturedBytes(input, tree, raw, git);
  });
}

function capture(git: WorkerGit, tree: ReturnType<typeof locateWorkerTree>, input: CaptureChangeSetInput): Buffer {
  const kept = join(tree.gitDir, KEPT_INDEX);
  const index = join(tree.gitDir, `docket-capture-${process.pid}-${randomBytes(6).toString("hex")}.index`);
  let captured = false;
  try {
    takeIndex(kept, join(tree.gitDir, "index"), index);
    run(git, input, ["add", "-A", "--", "."], index);
    const out = run(git, input, [...DIFF_FLAGS, input.base, "--"], index, input.maxPatchBytes);
    captured = true;
    return out;
  } finally {
    rmSync(`${index}.lock`, { force: true });
    if (captured) keepIndex(index, kept);
    else rmSync(index, { force: true });
  }
}

function isUtf8Text(raw: Buffer): boolean {
  const text = raw.toString("utf8");
  return Buffer.byteLength(text, "utf8") === raw.length && !text.includes("\uFFFD");
}

/**
 * The change set of numstat+patch bytes captured elsewhere (a worker's workspace on a host): the same checks
 * as a local capture — git here reads the patch against the base in this machine's objects, and the file list comes
 * from that reading. Bytes that are not UTF-8 are refused (a host's capture has no binary fallback yet).
 */
export function freezeCapturedBytes(input: CaptureChangeSetInput, raw: Buffer): ChangeSet {
  if (!isUtf8Text(raw))
    throw forged(
      input,
      "the host's patch is not UTF-8 text (a file there is neither text in UTF-8 nor detected as binary)",
    );
  return checkCapturedBytes(input, locateWorkerTree(input.tree), raw);
}

function checkCapturedBytes(
  input: CaptureChangeSetInput,
  tree: ReturnType<typeof locateWorkerTree>,
  raw: Buffer,
  git?: WorkerGit,
): ChangeSet {
  const { files: listed, patch } = parseNumstatPatch(raw.toString("utf8"));
  const checked = checkFrozenPatch(
    { objects: tree.objects, base: input.base, patch, baseIndex: baseIndexFile(tree.gitDir, input.base) },
    git,
  );
  if (!checked.ok) throw forged(input, checked.reason);
  if (!sameFiles(listed, checked.files))
    throw forged(input, "the files the capture listed differ from the files git reads in its patch");
  return {
    ref: input.ref,
    base: input.base,
    files: checked.files,
    stat: formatStat(checked.files),
    hunks: checked.hunks,
    patch,
  };
}

function forged(input: CaptureChangeSetInput, reason: string): Error {
  return refusal(
    "patch-integrity-failed",
    `the change set of ${input.tree.worker} cannot be frozen: ${reason}; nothing was frozen`,
    "make the changes with ordinary file edits in the workspace and call docket_done again, or call docket_fail",
  );
}

/** Docket's own index for this worktree, kept between captures so git's stat cache stays warm (git writes it). */
const KEPT_INDEX = "docket-capture.index";

/**
 * Takes the kept private index by renaming it (a concurrent capture then seeds its own instead); without one,
 * seeds from a copy of the worktree's index backdated one second before the original's mtime: git re-reads
 * entries modified at or after the index's own mtime ("racily clean"), so a same-size edit made in the same
 * second as the checkout is never mistaken for unchanged, as it would be with a fresh copy's mtime.
 */
function takeIndex(kept: string, worktreeIndex: string, to: string): void {
  try {
    renameSync(kept, to);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  try {
    const st = statSync(worktreeIndex);
    copyFileSync(worktreeIndex, to);
    utimesSync(to, st.atimeMs / 1000, st.mtimeMs / 1000 - 1);
  } catch (error) {
    // No index yet: `git add -A` builds the private one from scratch (slower, same result).
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

function keepIndex(index: string, kept: string): void {
  try {
    renameSync(index, kept);
  } catch {
    rmSync(index, { force: true }); // only the warm stat cache is lost; the next capture seeds a new one
  }
}

function run(git: WorkerGit, input: CaptureChangeSetInput, args: string[], index: string, maxStdout?: number): Buffer {
  let r: ReturnType<WorkerGit["run"]>;
  try {
    r = git.run(args, { index, maxStdout });
  } catch (error) {
    if (maxStdout !== undefined && (error as NodeJS.ErrnoException).code === "ENOBUFS")
      throw changeSetTooLarge(input.tree.worker, maxStdout);
    throw error;
  }
  if (r.status === 0) return r.stdout;
  const stderr = r.stderr.trim().split("\n")[0] || `exit ${r.status}`;
  throw refusal(
    "change-set-capture-failed",
    `git ${args[0]} failed in ${input.tree.workspace}: ${stderr}`,
    "fix the workspace (or its base) and call docket_done again, or call docket_fail",
  );
}
