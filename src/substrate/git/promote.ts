// Git for promotion and discard: check/apply a frozen patch in the parent checkout, detect files the parent
// changed since a worker's base, compare a worker's live tree with its frozen patch, and reset a workspace.
// Patches go through stdin and every git call takes an argument array; nothing here builds a shell string.

import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";

interface GitRun {
  status: number;
  stdout: string;
  stderr: string;
}

function runGit(cwd: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): GitRun {
  const r = spawnSync("git", args, {
    cwd,
    input: options.input,
    encoding: "utf8",
    env: { ...process.env, ...options.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

function mustGit(cwd: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): string {
  const r = runGit(cwd, args, options);
  if (r.status !== 0) throw new Error(`git ${args[0]} failed in ${cwd}: ${r.stderr.trim() || `exit ${r.status}`}`);
  return r.stdout;
}

export interface PatchProblem {
  path: string;
  reason: string;
}

export type PatchCheck = { ok: true } | { ok: false; problems: PatchProblem[]; stderr: string };

/** Parses `git apply` complaints into one entry per file, in order of first mention. */
export function parseApplyErrors(stderr: string): PatchProblem[] {
  const byPath = new Map<string, string[]>();
  const add = (path: string, reason: string) => {
    const list = byPath.get(path) ?? [];
    if (!list.includes(reason)) list.push(reason);
    byPath.set(path, list);
  };
  for (const line of stderr.split("\n")) {
    const failed = /^error: patch failed: (.+):(\d+)$/.exec(line);
    if (failed) {
      add(failed[1]!, `the parent's lines around line ${failed[2]} differ from the patch's context`);
      continue;
    }
    const m = /^error: (.+?): (.+)$/.exec(line);
    if (m && m[1] !== "patch failed") add(m[1]!, m[2]!.replace(/^patch does not apply$/, "patch does not apply"));
  }
  return [...byPath].map(([path, reasons]) => ({ path, reason: reasons.join("; ") }));
}

/** `git apply --check` of a patch (on stdin) against the working tree at `repoRoot`. Changes nothing. */
export function checkPatch(repoRoot: string, patch: string): PatchCheck {
  const r = runGit(repoRoot, ["apply", "--check", "--whitespace=nowarn", "-"], { input: patch });
  if (r.status === 0) return { ok: true };
  const problems = parseApplyErrors(r.stderr);
  return { ok: false, problems: problems.length > 0 ? problems : [{ path: "(patch)", reason: r.stderr.trim() || `git apply exited ${r.status}` }], stderr: r.stderr };
}

/** Applies a patch to the working tree only (no index, no commit). git applies all of it or none of it. */
export function applyPatch(repoRoot: string, patch: string): PatchCheck {
  const r = runGit(repoRoot, ["apply", "--whitespace=nowarn", "-"], { input: patch });
  if (r.status === 0) return { ok: true };
  return { ok: false, problems: parseApplyErrors(r.stderr), stderr: r.stderr };
}

/**
 * True when the working tree at `repoRoot` already holds exactly this patch's result: `git apply -R --check` accepts it
 * (every hunk's post-image is there, every created file exists as created, every deleted file is gone). Changes nothing.
 */
export function isPatchApplied(repoRoot: string, patch: string): boolean {
  return runGit(repoRoot, ["apply", "-R", "--check", "--whitespace=nowarn", "-"], { input: patch }).status === 0;
}

/** Reverses a patch that was just applied (used when the promotion could not be recorded). */
export function reversePatch(repoRoot: string, patch: string): boolean {
  if (!isPatchApplied(repoRoot, patch)) return false;
  return runGit(repoRoot, ["apply", "-R", "--whitespace=nowarn", "-"], { input: patch }).status === 0;
}

export interface ParentChange {
  path: string;
  /** git's name-status letter (M, A, D, T…) or `?` for an untracked file. */
  status: string;
}

function hasCommit(repo: string, rev: string): boolean {
  return runGit(repo, ["cat-file", "-e", `${rev}^{commit}`]).status === 0;
}

/**
 * Files among `paths` whose content in the parent working tree differs from the worker's base (which holds the
 * parent's HEAD plus its uncommitted changes at spawn). Falls back to `baseHead` when the base commit is not in the
 * parent's object store (a copied, non-worktree workspace). Undefined when neither commit is known: cannot tell.
 */
export function parentChangesSince(repoRoot: string, refs: { base: string | null; baseHead: string | null }, paths: string[]): ParentChange[] | undefined {
  if (paths.length === 0) return [];
  const rev = refs.base && hasCommit(repoRoot, refs.base) ? refs.base : refs.baseHead && hasCommit(repoRoot, refs.baseHead) ? refs.baseHead : undefined;
  if (!rev) return undefined;
  const specs = paths.map((p) => `:(literal)${p}`);
  const out = mustGit(repoRoot, ["diff", "--name-status", "--no-renames", "-z", rev, "--", ...specs]);
  const parts = out.split("\0").filter((s) => s !== "");
  const changes: ParentChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) changes.push({ status: parts[i]!, path: parts[i + 1]! });
  const untracked = mustGit(repoRoot, ["ls-files", "--others", "--exclude-standard", "-z", "--", ...specs]).split("\0").filter((s) => s !== "");
  for (const path of untracked) if (!changes.some((c) => c.path === path)) changes.push({ path, status: "?" });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function withPrivateIndex<T>(workspace: string, seedFromWorktree: boolean, fn: (env: NodeJS.ProcessEnv) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "docket-index-"));
  const index = join(dir, "index");
  try {
    if (seedFromWorktree) {
      // Seeding from the worktree's own index keeps git's stat cache, so `add -A` hashes only changed files.
      const rel = mustGit(workspace, ["rev-parse", "--git-path", "index"]).trim();
      try {
        copyFileSync(isAbsolute(rel) ? rel : join(workspace, rel), index);
      } catch {
        // No index yet (fresh worktree): git builds one from scratch below; only speed is lost.
      }
    }
    return fn({ GIT_INDEX_FILE: index });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The tree of everything in the workspace now (as `git add -A` sees it), without touching the worker's index. */
export function liveTree(workspace: string): string {
  return withPrivateIndex(workspace, true, (env) => {
    mustGit(workspace, ["add", "-A"], { env });
    return mustGit(workspace, ["write-tree"], { env }).trim();
  });
}

/** The tree that `base` + the frozen patch produce, computed in a private index (no working-tree writes). */
export function frozenTree(workspace: string, base: string, patch: string): string | undefined {
  return withPrivateIndex(workspace, false, (env) => {
    mustGit(workspace, ["read-tree", base], { env });
    if (patch !== "" && runGit(workspace, ["apply", "--cached", "--whitespace=nowarn", "-"], { input: patch, env }).status !== 0) return undefined;
    return mustGit(workspace, ["write-tree"], { env }).trim();
  });
}

/** True when the worker's live workspace still holds exactly base + frozen patch (no later edits). */
export function liveEqualsFrozen(workspace: string, base: string, patch: string): boolean {
  const frozen = frozenTree(workspace, base, patch);
  return frozen !== undefined && frozen === liveTree(workspace);
}

/** Files in the workspace that differ from `base` (tracked changes and untracked, non-ignored files). */
export function liveChangedPaths(workspace: string, base: string): string[] {
  return withPrivateIndex(workspace, true, (env) => {
    mustGit(workspace, ["add", "-A"], { env });
    return mustGit(workspace, ["diff", "--cached", "--name-only", "--no-renames", "-z", base], { env }).split("\0").filter((s) => s !== "");
  });
}

/** Puts the workspace back at `base`: tracked files reset, untracked non-ignored files removed; ignored files stay. */
export function resetWorkspace(workspace: string, base: string): void {
  mustGit(workspace, ["reset", "-q", "--hard", base]);
  mustGit(workspace, ["clean", "-fdq"]);
}
