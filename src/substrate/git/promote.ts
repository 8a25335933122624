// Git for promotion in the parent checkout: check/apply a frozen patch there and detect files the parent changed since a
// worker's base. The human's own git (absolute path, neutralised config); a worker's tree is live-tree.ts's, never this.
// Patches go through stdin and every git call takes an argument array; nothing here builds a shell string.

import { spawnSync } from "node:child_process";
import { envWithoutGit, filterOverrides, gitBinary, neutralArgs } from "./git-binary.js";

interface GitRun {
  status: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  input?: string;
  env?: NodeJS.ProcessEnv;
  /** filterOverrides(cwd), when the caller already has them (one lookup for a batch of calls). */
  filters?: string[];
}

/** Subcommands that can run a filter driver on a checkout's files (apply writes them, a diff of the tree reads them). */
const FILTERING = new Set(["apply", "diff"]);

function runGit(cwd: string, args: string[], options: RunOptions = {}): GitRun {
  const filters = options.filters ?? (FILTERING.has(args[0]!) ? filterOverrides(cwd) : []);
  const r = spawnSync(gitBinary(), [...neutralArgs(), ...filters, ...args], {
    cwd,
    input: options.input,
    encoding: "utf8",
    env: envWithoutGit({ ...options.env, LC_ALL: "C" }),
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

function mustGit(cwd: string, args: string[], options: RunOptions = {}): string {
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
      add(failed[1]!, `your checkout's lines around line ${failed[2]} differ from the patch's context`);
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
  return {
    ok: false,
    problems:
      problems.length > 0 ? problems : [{ path: "(patch)", reason: r.stderr.trim() || `git apply exited ${r.status}` }],
    stderr: r.stderr,
  };
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

/** The checkout's uncommitted paths (edits, staged, untracked and not ignored): what a read-only worker's card compares. */
export function checkoutChangedPaths(repoRoot: string): string[] {
  const out = mustGit(repoRoot, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"], {
    filters: filterOverrides(repoRoot),
  });
  // Each entry is `XY <path>\0`; without renames no entry carries a second path.
  return out
    .split("\0")
    .filter((e) => e.length > 3)
    .map((e) => e.slice(3));
}

function hasCommit(repo: string, rev: string): boolean {
  return runGit(repo, ["cat-file", "-e", `${rev}^{commit}`]).status === 0;
}

/** Which of `revs` name a commit in `repo`: object ids in one `git cat-file --batch-check`, anything else one by one. */
function commitsAmong(repo: string, revs: readonly string[]): Set<string> {
  const ids = revs.filter((r) => /^[0-9a-fA-F]{4,64}$/.test(r));
  const known = new Set(revs.filter((r) => !ids.includes(r) && hasCommit(repo, r)));
  if (ids.length === 0) return known;
  const r = runGit(repo, ["cat-file", "--batch-check"], { input: ids.map((id) => `${id}^{commit}\n`).join("") });
  if (r.status !== 0) return known; // not a repository: no commit is known to it
  r.stdout.split("\n").forEach((line, i) => {
    if (i < ids.length && line.split(" ")[1] === "commit") known.add(ids[i]!);
  });
  return known;
}

/** One worker's question to the parent checkout: which of `paths` changed since its base (or base head)? */
export interface ParentQuery {
  base: string | null;
  baseHead: string | null;
  paths: readonly string[];
}

export type ParentAnswer = { ok: true; changes: ParentChange[] | undefined } | { ok: false; error: Error };

/**
 * Files among `paths` whose content in the parent working tree differs from the worker's base (which holds the
 * parent's HEAD plus its uncommitted changes at spawn). Falls back to `baseHead` when the base commit is not in the
 * parent's object store (a copied, non-worktree workspace). Undefined when neither commit is known: cannot tell.
 */
export function parentChangesSince(
  repoRoot: string,
  refs: { base: string | null; baseHead: string | null },
  paths: string[],
): ParentChange[] | undefined {
  const [answer] = parentChangesForEach(repoRoot, [{ ...refs, paths }]);
  if (!answer!.ok) throw answer!.error;
  return answer!.changes;
}

/**
 * parentChangesSince for many queries on one repository with few git processes: one commit check for every base, one
 * diff per distinct base over the union of its queries' paths, one untracked listing over the union of all.
 * A shared listing is split back per query by git's literal-pathspec rule (the path itself or a directory above it).
 */
export function parentChangesForEach(repoRoot: string, queries: readonly ParentQuery[]): ParentAnswer[] {
  const answers: ParentAnswer[] = queries.map(() => ({ ok: true, changes: [] }));
  const asking = queries.flatMap((q, i) => (q.paths.length > 0 ? [i] : []));
  let known: Set<string>;
  try {
    known = commitsAmong(repoRoot, [
      ...new Set(asking.flatMap((i) => [queries[i]!.base ?? "", queries[i]!.baseHead ?? ""]).filter((r) => r !== "")),
    ]);
  } catch (error) {
    for (const i of asking) answers[i] = { ok: false, error: error as Error };
    return answers;
  }
  const byRev = new Map<string, number[]>();
  for (const i of asking) {
    const q = queries[i]!;
    const rev = q.base && known.has(q.base) ? q.base : q.baseHead && known.has(q.baseHead) ? q.baseHead : undefined;
    if (!rev) answers[i] = { ok: true, changes: undefined };
    else byRev.set(rev, [...(byRev.get(rev) ?? []), i]);
  }
  const diffs = new Map<number, ParentChange[]>();
  let filters: string[] | undefined;
  for (const [rev, members] of byRev) {
    const diff = (paths: readonly string[]): ParentChange[] => {
      filters ??= filterOverrides(repoRoot);
      const parts = gitOverPaths(repoRoot, ["diff", "--name-status", "--no-renames", "-z", rev, "--"], paths, filters);
      const changes = new Map<string, ParentChange>();
      for (const part of parts)
        for (let k = 0; k + 1 < part.length; k += 2)
          if (!changes.has(part[k + 1]!)) changes.set(part[k + 1]!, { status: part[k]!, path: part[k + 1]! });
      return [...changes.values()];
    };
    try {
      shareListing(
        members.map((i) => queries[i]!.paths),
        diff,
      ).forEach((changes, k) => diffs.set(members[k]!, changes));
    } catch (error) {
      for (const i of members) answers[i] = { ok: false, error: error as Error };
    }
  }
  const listed = [...diffs.keys()];
  if (listed.length === 0) return answers;
  let untracked: ParentChange[][];
  try {
    const list = (paths: readonly string[]) =>
      [
        ...new Set(gitOverPaths(repoRoot, ["ls-files", "--others", "--exclude-standard", "-z", "--"], paths).flat()),
      ].map((path) => ({ path, status: "?" }));
    untracked = shareListing(
      listed.map((i) => queries[i]!.paths),
      list,
    );
  } catch (error) {
    for (const i of listed) answers[i] = { ok: false, error: error as Error };
    return answers;
  }
  listed.forEach((i, k) => {
    const changes = diffs.get(i)!;
    const seen = new Set(changes.map((c) => c.path));
    for (const u of untracked[k]!) if (!seen.has(u.path)) changes.push(u);
    answers[i] = { ok: true, changes: changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
  });
  return answers;
}

/**
 * One git listing for several path lists, split back per list. When git names a path none of the lists matches (its
 * paths are not relative to the repository root asked), each list is listed on its own instead, as before batching.
 */
function shareListing(
  pathLists: readonly (readonly string[])[],
  listing: (paths: readonly string[]) => ParentChange[],
): ParentChange[][] {
  if (pathLists.length === 1) return [listing(pathLists[0]!)];
  const entries = listing([...new Set(pathLists.flat())]);
  const specs = pathLists.map((paths) => new Set(paths));
  const shares = specs.map((set) => entries.filter((e) => matchesLiteralPathspec(e.path, set)));
  if (entries.every((e) => specs.some((set) => matchesLiteralPathspec(e.path, set)))) return shares;
  return pathLists.map((paths) => listing(paths));
}

const PATHSPECS_PER_CALL = 1_000;

/** Runs `args` with `paths` as literal pathspecs, in chunks that stay far below the argument-size limit. */
function gitOverPaths(repoRoot: string, args: string[], paths: readonly string[], filters?: string[]): string[][] {
  const outputs: string[][] = [];
  for (let k = 0; k < paths.length; k += PATHSPECS_PER_CALL) {
    const specs = paths.slice(k, k + PATHSPECS_PER_CALL).map((p) => `:(literal)${p}`);
    outputs.push(
      mustGit(repoRoot, [...args, ...specs], { filters: filters ?? [] })
        .split("\0")
        .filter((s) => s !== ""),
    );
  }
  return outputs;
}

/** git's `:(literal)` match: the path itself, or a file below it when the pathspec names a directory. */
function matchesLiteralPathspec(path: string, specs: ReadonlySet<string>): boolean {
  if (specs.has(path)) return true;
  for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) {
    if (specs.has(path.slice(0, i)) || specs.has(path.slice(0, i + 1))) return true;
  }
  return false;
}
