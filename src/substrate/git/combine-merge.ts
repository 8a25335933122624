// The merge behind Combine, on frozen data only: two workers' frozen patches applied to the base they share (proved by
// both applying), committed in a private object store, merged by `git merge-tree`, and read back as plain data.

import type { WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import { refusal } from "../../domain/errors.js";
import {
  BASE_LABEL,
  relabelMarkers,
  sideLabel,
  wholeFileConflict,
  type ConflictSide,
  type MergeSummary,
  type SideLabels,
} from "../../domain/review/combine.js";
import { normalizeRelative } from "../../domain/talk/project-paths.js";
import {
  commitTree,
  countChangedPaths,
  diffTrees,
  hasCommit,
  MERGE_TREE_MIN_GIT,
  mergeBase,
  mergeTrees,
  openMergeWorkspace,
  readBlob,
  treeEntry,
  treeWithPatch,
  type ConflictStage,
  type MergeWorkspace,
  type TreeDiff,
  type TreeMerge,
} from "./merge.js";
import { isAtLeast, toolVersion } from "../tool-versions.js";

export interface MergeSource {
  worker: string;
  task: string;
  ref: string;
  deliverable: WorkerDeliverable;
}

export interface ContestedFile {
  path: string;
  /** `content` (both changed the same lines), `add/add`, `modify/delete`, `binary`, or what git named it. */
  kind: string;
  mode: string;
  /** Conflict regions in it (a whole-file conflict is one). */
  conflicts: number;
  /** The file as the human resolves it: git's diff3 text relabelled, or a whole-file diff3 form. */
  draft: Buffer;
  /** Binary sides to copy from: `sides/<label>/<path>` → bytes. */
  sides: { path: string; bytes: Buffer }[];
  /** Each side's own text of the file (null when absent or binary): marker lines in them are theirs, not residue. */
  own: (string | null)[];
}

export interface MergeOutcome {
  base: string;
  tree: string;
  clean: boolean;
  /** The merged change set (base → merged tree); clean merges only, and not for a dry merge. */
  diff: TreeDiff | null;
  contested: ContestedFile[];
  summary: MergeSummary;
  labels: SideLabels;
}

let installedGit: { version: string | undefined } | undefined; // asked once per process: a review run may dry-merge many pairs

/** Refuses, with the version found, when git cannot `merge-tree --write-tree`. */
export function assertMergeTreeGit(
  version: string | undefined = (installedGit ??= { version: toolVersion("git") }).version,
): void {
  if (!version || !isAtLeast(version, MERGE_TREE_MIN_GIT)) {
    throw refusal(
      "git-too-old",
      `Combine needs git ${MERGE_TREE_MIN_GIT} or newer (merge-tree --write-tree); this machine has ${version ?? "no git"}; nothing changed`,
      "upgrade git, or hand both change sets to one worker with --to",
    );
  }
}

/** The first candidate base both patches apply to, with the tree each makes there. */
function sharedBase(
  ws: MergeWorkspace,
  a: MergeSource,
  b: MergeSource,
): { base: string; ours: string; theirs: string } {
  const ca = a.deliverable.changeSet!;
  const cb = b.deliverable.changeSet!;
  const known = [ca.base, cb.base].filter((c) => c && hasCommit(ws, c));
  const meet = known.length === 2 ? mergeBase(ws, known[0]!, known[1]!) : undefined;
  for (const base of [...new Set([...known, ...(meet ? [meet] : [])])]) {
    const ours = treeWithPatch(ws, base, ca.patch);
    const theirs = ours === undefined ? undefined : treeWithPatch(ws, base, cb.patch);
    if (ours !== undefined && theirs !== undefined) return { base, ours, theirs };
  }
  throw refusal(
    "no-shared-base",
    `${a.worker} and ${b.worker} share no base both frozen change sets apply to (bases ${ca.base.slice(0, 12)} and ${cb.base.slice(0, 12)}); nothing changed`,
    "hand both change sets to one of the workers with --to",
  );
}

const isBinary = (b: Buffer): boolean => b.includes(0) || b.toString("utf8").includes("\uFFFD");

function side(
  ws: MergeWorkspace,
  stage: ConflictStage | undefined,
  label: string,
  path: string,
  sides: ContestedFile["sides"],
): { side: ConflictSide; own: string | null } {
  if (!stage) return { side: { kind: "absent" }, own: null };
  const bytes = readBlob(ws, stage.oid);
  if (!isBinary(bytes)) return { side: { kind: "text", text: bytes.toString("utf8") }, own: bytes.toString("utf8") };
  const copy = `sides/${label}/${path}`;
  sides.push({ path: copy, bytes });
  return { side: { kind: "binary", bytes: bytes.length, copy }, own: null };
}

/** Reads every contested path of a conflicted merge into the file the human will edit. */
function contestedFiles(
  ws: MergeWorkspace,
  merge: TreeMerge,
  commits: { ours: string; theirs: string; base: string },
  labels: SideLabels,
  workers: [string, string],
): ContestedFile[] {
  const byPath = new Map<string, ConflictStage[]>();
  for (const s of merge.stages) byPath.set(s.path, [...(byPath.get(s.path) ?? []), s]);
  const git: SideLabels = { ours: commits.ours, theirs: commits.theirs, base: commits.base };
  return [...byPath].map(([path, stages]) => {
    if (!normalizeRelative(path) || normalizeRelative(path) !== path)
      throw refusal(
        "combine-bad-path",
        `git reported a contested path Docket will not write: ${JSON.stringify(path)}; nothing changed`,
      );
    const at = (n: 1 | 2 | 3) => stages.find((s) => s.stage === n);
    const entry = treeEntry(ws, merge.tree, path);
    const merged = entry ? readBlob(ws, entry.oid) : undefined;
    const mode = entry?.mode ?? at(2)?.mode ?? at(3)?.mode ?? "100644";
    const type =
      merge.messages.find((m) => m.paths.includes(path) && m.type.startsWith("CONFLICT"))?.type ?? "CONFLICT";
    const sides: ContestedFile["sides"] = [];
    const ours = side(ws, at(2), workers[0], path, sides);
    const theirs = side(ws, at(3), workers[1], path, sides);
    const base = side(ws, at(1), "base", path, sides);
    const own = [ours.own, theirs.own];
    if (merged && !isBinary(merged) && merged.toString("utf8").split("\n").includes(`<<<<<<< ${commits.ours}`)) {
      const text = relabelMarkers(merged.toString("utf8"), git, labels);
      const conflicts = text.split("\n").filter((l) => l.startsWith(`<<<<<<< ${labels.ours}`)).length;
      return {
        path,
        kind: at(1) ? "content" : "add/add",
        mode,
        conflicts,
        draft: Buffer.from(text, "utf8"),
        sides: [],
        own,
      };
    }
    const kind = [ours, theirs, base].some((s) => s.side.kind === "binary")
      ? "binary"
      : !at(2) || !at(3)
        ? "modify/delete"
        : (/\(([^)]+)\)/.exec(type)?.[1] ?? "other");
    const draft = wholeFileConflict(labels, { ours: ours.side, base: base.side, theirs: theirs.side });
    return { path, kind, mode, conflicts: 1, draft: Buffer.from(draft, "utf8"), sides, own };
  });
}

/**
 * Merges `a` (ours) and `b` (theirs) over the base both apply to and hands the outcome to `use` while the private
 * object store is open (so a caller can build on the merged tree); the store is deleted afterwards, whatever happens.
 * `dry`: only the summary is wanted, so a clean merge's patch is not made (`diff` stays null).
 */
export function withMerge<R>(
  repo: string,
  a: MergeSource,
  b: MergeSource,
  use: (m: MergeOutcome, ws: MergeWorkspace) => R,
  options: { dry?: boolean } = {},
): R {
  const ws = openMergeWorkspace(repo, a.deliverable.changeSet!.base);
  try {
    const { base, ours, theirs } = sharedBase(ws, a, b);
    const oursCommit = commitTree(ws, ours, base, `${a.worker}: ${a.ref}`);
    const theirsCommit = commitTree(ws, theirs, base, `${b.worker}: ${b.ref}`);
    const merge = mergeTrees(ws, oursCommit, theirsCommit);
    const labels: SideLabels = {
      ours: sideLabel(a.worker, a.task),
      theirs: sideLabel(b.worker, b.task),
      base: BASE_LABEL,
    };
    if (merge.clean && options.dry) {
      return use(
        {
          base,
          tree: merge.tree,
          clean: true,
          diff: null,
          contested: [],
          labels,
          summary: { clean: true, files: countChangedPaths(ws, base, merge.tree), conflicts: 0 },
        },
        ws,
      );
    }
    if (merge.clean) {
      const diff = diffTrees(ws, base, merge.tree);
      return use(
        {
          base,
          tree: merge.tree,
          clean: true,
          diff,
          contested: [],
          labels,
          summary: { clean: true, files: diff.files.length, conflicts: 0 },
        },
        ws,
      );
    }
    const contested = contestedFiles(ws, merge, { ours: oursCommit, theirs: theirsCommit, base }, labels, [
      a.worker,
      b.worker,
    ]);
    const conflicts = contested.reduce((n, c) => n + c.conflicts, 0);
    return use(
      {
        base,
        tree: merge.tree,
        clean: false,
        diff: null,
        contested,
        labels,
        summary: { clean: false, files: contested.length, conflicts },
      },
      ws,
    );
  } finally {
    ws.dispose();
  }
}
