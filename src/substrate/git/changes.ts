// Captures a worker's change set once: everything in its workspace against its base, as a binary-safe patch.
// Uses a private index (GIT_INDEX_FILE) kept beside the worktree's, so the worker's own staging area is never touched.

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { ChangeSet } from "../../domain/deliverables/deliverable.js";
import { countHunks, formatStat, parseNumstatPatch } from "../../domain/deliverables/change-set.js";
import { refusal } from "../../domain/errors.js";

export interface CaptureChangeSetInput {
  /** The worker's git worktree. */
  workspace: string;
  /** The worker's base commit: every diff of the worker is against it. */
  base: string;
  /** `worker-changes:<w>:<N>`. */
  ref: string;
}

const DIFF_FLAGS = [
  "diff", "--cached", "--binary", "--numstat", "-z", "-p", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv",
  "--src-prefix=a/", "--dst-prefix=b/",
];
const MAX_OUTPUT = 2 * 1024 * 1024 * 1024 - 1;

/**
 * Two git processes: `git add -A` into Docket's private index for this worktree (so unchanged files hit the stat
 * cache), then one `git diff --cached --binary --numstat -z -p <base>` that yields the file list and the patch.
 */
export function captureChangeSet(input: CaptureChangeSetInput): ChangeSet {
  const gitDir = resolveGitDir(input.workspace);
  const kept = join(gitDir, KEPT_INDEX);
  const index = join(gitDir, `docket-capture-${process.pid}-${randomBytes(6).toString("hex")}.index`);
  const env = gitEnv(index);
  let captured = false;
  try {
    takeIndex(kept, join(gitDir, "index"), index);
    run(input, ["add", "-A", "--", "."], env);
    let raw = run(input, [...DIFF_FLAGS, input.base, "--"], env);
    let text = raw.toString("utf8");
    const { files } = parseNumstatPatch(text);
    if (Buffer.byteLength(text, "utf8") !== raw.length || text.includes("\uFFFD")) {
      // Some file is not UTF-8: a text patch would not survive JSON. Freeze every file as a git binary patch instead.
      const attributes = `${index}.attributes`;
      writeFileSync(attributes, "* -diff\n");
      try {
        raw = run(input, ["-c", `core.attributesFile=${attributes}`, ...DIFF_FLAGS, input.base, "--"], env);
        text = raw.toString("utf8");
      } finally {
        rmSync(attributes, { force: true });
      }
    }
    const { patch } = parseNumstatPatch(text);
    captured = true;
    return { ref: input.ref, base: input.base, files, stat: formatStat(files), hunks: countHunks(patch), patch };
  } finally {
    rmSync(`${index}.lock`, { force: true });
    if (captured) keepIndex(index, kept);
    else rmSync(index, { force: true });
  }
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

/** `<worktree>/.git` is a directory (main checkout) or a `gitdir: <path>` file (linked worktree). */
export function resolveGitDir(workspace: string): string {
  const dotGit = join(workspace, ".git");
  let stat;
  try {
    stat = statSync(dotGit);
  } catch (error) {
    throw refusal("workspace-missing", `workspace ${workspace} is not a git worktree (${(error as NodeJS.ErrnoException).code ?? "unreadable"}); its change set cannot be captured`, "restore the workspace or call docket_fail");
  }
  if (stat.isDirectory()) return dotGit;
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
  if (!m) throw refusal("workspace-missing", `${dotGit} does not name a git directory; the change set cannot be captured`, "restore the workspace or call docket_fail");
  return isAbsolute(m[1]!) ? m[1]! : resolve(workspace, m[1]!);
}

function gitEnv(index: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_INDEX_FILE: index, GIT_OPTIONAL_LOCKS: "0" };
  for (const k of ["GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX"]) delete env[k];
  return env;
}

function run(input: CaptureChangeSetInput, args: string[], env: NodeJS.ProcessEnv): Buffer {
  try {
    return execFileSync("git", args, { cwd: input.workspace, env, maxBuffer: MAX_OUTPUT, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").trim().split("\n")[0] || (error as Error).message;
    throw refusal("change-set-capture-failed", `git ${args[0] === "-c" ? args[2] : args[0]} failed in ${input.workspace}: ${stderr}`, "fix the workspace (or its base) and call docket_done again, or call docket_fail");
  }
}
