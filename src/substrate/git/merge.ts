// Three-way merge of two frozen change sets with `git merge-tree --write-tree` (git ≥ 2.38), touching no worktree,
// index or checkout: every object it makes goes to a private object directory (the repository's own is only read),
// and git reads no config or attributes a worker could have written (worker-git's scratch git).

import { join } from "node:path";
import type { ChangeSetFile } from "../../domain/deliverables/deliverable.js";
import { openScratchGit } from "./worker-git.js";
import { gitCommonDir } from "./worktree.js";
import { countHunks, formatStat, parseNumstatPatch } from "../../domain/deliverables/change-set.js";

/** The first git that has `merge-tree --write-tree`. */
export const MERGE_TREE_MIN_GIT = "2.38";

const IDENTITY = {
  GIT_AUTHOR_NAME: "Docket",
  GIT_AUTHOR_EMAIL: "docket@example.invalid",
  GIT_COMMITTER_NAME: "Docket",
  GIT_COMMITTER_EMAIL: "docket@example.invalid",
  GIT_AUTHOR_DATE: "2000-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2000-01-01T00:00:00Z",
};

interface Run {
  status: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * A private object store over a repository: new objects land in a temp directory, the repository's objects are read
 * through it as an alternate, and a private index stands in for the real one. `dispose` deletes it all.
 */
export interface MergeWorkspace {
  repo: string;
  run(args: string[], input?: string | Buffer): Run;
  must(args: string[], input?: string | Buffer): Buffer;
  /** Runs `fn` with every file diffed as binary (a patch that must survive JSON). */
  asBinary<T>(fn: () => T): T;
  dispose(): void;
}

/**
 * The merged bytes come from workers, and a worker can write the repository's shared config and `info/attributes`:
 * so the workspace is worker-git's scratch git (private git dir and attributes, no config of the repository's, the
 * system's or the user's), and no merge driver, filter or textconv a worker named can run. `head` is a
 * commit id of the repository's own format (a source's base).
 */
export function openMergeWorkspace(repo: string, head: string): MergeWorkspace {
  const id = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(head) ? head : "0".repeat(40);
  const scratch = openScratchGit(join(gitCommonDir(repo), "objects"), id, IDENTITY);
  const { git } = scratch;
  return {
    repo,
    run: (args, input) => git.run(args, { input }),
    must: (args, input) => git.must(args, { input }),
    asBinary: (fn) => {
      git.setAttributes("binary");
      try {
        return fn();
      } finally {
        git.setAttributes("auto");
      }
    },
    dispose: scratch.dispose,
  };
}

const text = (b: Buffer): string => b.toString("utf8").trim();

/** True when `rev` names a commit the repository has. */
export function hasCommit(ws: MergeWorkspace, rev: string): boolean {
  return ws.run(["cat-file", "-e", `${rev}^{commit}`]).status === 0;
}

/** The merge base of two commits, if they share history. */
export function mergeBase(ws: MergeWorkspace, a: string, b: string): string | undefined {
  const r = ws.run(["merge-base", a, b]);
  return r.status === 0 ? text(r.stdout) : undefined;
}

/** The tree of `base` with `patch` applied (in the private index); undefined when the patch does not apply to it. */
export function treeWithPatch(ws: MergeWorkspace, base: string, patch: string): string | undefined {
  ws.must(["read-tree", base]);
  if (patch !== "" && ws.run(["apply", "--cached", "--binary", "--whitespace=nowarn", "-"], patch).status !== 0)
    return undefined;
  return text(ws.must(["write-tree"]));
}

/** A commit of `tree` on `parent` (fixed identity and date: the same inputs give the same commit). */
export function commitTree(ws: MergeWorkspace, tree: string, parent: string, message: string): string {
  return text(ws.must(["commit-tree", tree, "-p", parent, "-m", message]));
}

/** One `<mode> <object> <stage>\t<path>` line of merge-tree's conflicted file info. */
export interface ConflictStage {
  path: string;
  mode: string;
  oid: string;
  /** 1 the base, 2 ours, 3 theirs. */
  stage: 1 | 2 | 3;
}

export interface TreeMerge {
  tree: string;
  clean: boolean;
  stages: ConflictStage[];
  /** merge-tree's own words about each conflict (`CONFLICT (modify/delete): …`). */
  messages: { paths: string[]; type: string; message: string }[];
}

/** Parses `git merge-tree --write-tree -z --messages` output: tree, conflicted stages, a blank field, then message groups. */
export function parseMergeTree(out: string, clean: boolean): TreeMerge {
  const fields = out.split("\0");
  const tree = fields[0]!.trim();
  const stages: ConflictStage[] = [];
  let i = 1;
  for (; i < fields.length && fields[i] !== ""; i++) {
    const m = /^([0-7]{6}) ([0-9a-f]{40,64}) ([123])\t([\s\S]+)$/.exec(fields[i]!);
    if (!m) throw new Error(`unexpected merge-tree output: ${JSON.stringify(fields[i])}`);
    stages.push({ mode: m[1]!, oid: m[2]!, stage: Number(m[3]) as 1 | 2 | 3, path: m[4]! });
  }
  i++; // the empty field that ends the conflicted file info (there even when there is none)
  const messages: TreeMerge["messages"] = [];
  while (i < fields.length) {
    const count = Number(fields[i]);
    if (!Number.isInteger(count) || count < 0 || fields[i] === "") break;
    const paths = fields.slice(i + 1, i + 1 + count);
    const type = fields[i + 1 + count] ?? "";
    const message = (fields[i + 2 + count] ?? "").trim();
    messages.push({ paths, type, message });
    i += 3 + count;
  }
  return { tree, clean, stages, messages };
}

/** `git -c merge.conflictStyle=diff3 merge-tree --write-tree`: the merged tree, with diff3 markers in conflicted files. */
export function mergeTrees(ws: MergeWorkspace, ours: string, theirs: string): TreeMerge {
  const r = ws.run(["-c", "merge.conflictStyle=diff3", "merge-tree", "--write-tree", "-z", "--messages", ours, theirs]);
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`git merge-tree failed: ${r.stderr.trim().split("\n")[0] || `exit ${r.status}`}`);
  return parseMergeTree(r.stdout.toString("utf8"), r.status === 0);
}

export function readBlob(ws: MergeWorkspace, oid: string): Buffer {
  return ws.must(["cat-file", "blob", oid]);
}

/** The entry at `path` in `tree`, if any. */
export function treeEntry(ws: MergeWorkspace, tree: string, path: string): { mode: string; oid: string } | undefined {
  const out = ws.must(["ls-tree", "-z", tree, "--", `:(literal)${path}`]).toString("utf8");
  const m = /^([0-7]{6}) blob ([0-9a-f]{40,64})\t/.exec(out);
  return m ? { mode: m[1]!, oid: m[2]! } : undefined;
}

/** `tree` with each path set to new bytes (keeping `mode`) or removed (bytes null). */
export function treeWithFiles(
  ws: MergeWorkspace,
  tree: string,
  files: readonly { path: string; mode: string; bytes: Buffer | null }[],
): string {
  ws.must(["read-tree", tree]);
  for (const f of files) {
    if (f.bytes === null) {
      // Mode 0 removes the entry: `--force-remove` would want a work tree, and the scratch git has none.
      ws.must(["update-index", "-z", "--index-info"], `0 ${"0".repeat(tree.length)}\t${f.path}\0`);
      continue;
    }
    const oid = text(ws.must(["hash-object", "-w", "--stdin"], f.bytes));
    ws.must(["update-index", "--add", "--cacheinfo", `${f.mode},${oid},${f.path}`]);
  }
  return text(ws.must(["write-tree"]));
}

/** How many paths differ between two trees (no patch is made: what a dry merge's summary needs). */
export function countChangedPaths(ws: MergeWorkspace, from: string, to: string): number {
  return ws
    .must(["diff-tree", "-r", "-z", "--name-only", "--no-renames", from, to, "--"])
    .toString("utf8")
    .split("\0")
    .filter((p) => p !== "").length;
}

export interface TreeDiff {
  files: ChangeSetFile[];
  stat: string;
  hunks: number;
  patch: string;
}

const DIFF = [
  "diff",
  "--binary",
  "--numstat",
  "-z",
  "-p",
  "--no-renames",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--full-index",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

/** `from` → `to` as a frozen change set would hold it (binary-safe; a non-UTF-8 file becomes a binary patch). */
export function diffTrees(ws: MergeWorkspace, from: string, to: string): TreeDiff {
  let raw = ws.must([...DIFF, from, to, "--"]);
  let out = raw.toString("utf8");
  const { files } = parseNumstatPatch(out);
  if (Buffer.byteLength(out, "utf8") !== raw.length || out.includes("\uFFFD")) {
    raw = ws.asBinary(() => ws.must([...DIFF, from, to, "--"]));
    out = raw.toString("utf8");
  }
  const { patch } = parseNumstatPatch(out);
  return { files, stat: formatStat(files), hunks: countHunks(patch), patch };
}
