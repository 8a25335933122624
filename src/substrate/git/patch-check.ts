// The human-side check of a frozen patch: git reads the patch bytes (`git apply --numstat --summary`, `--check` against
// the base in a private index) and the file list every surface shows is derived from that reading, never from the capture.

import { copyFileSync, lstatSync, renameSync } from "node:fs";
import type { ChangeSetFile } from "../../domain/deliverables/deliverable.js";
import {
  parseGitReading,
  resolvePatchIntegrity,
  type PatchIntegrity,
} from "../../domain/deliverables/patch-integrity.js";
import { withObjectGit, type WorkerGit } from "./worker-git.js";

export interface FrozenPatchInput {
  /** The object store holding `base` (a worktree's common objects, a copied tree's own). */
  objects: string;
  base: string;
  patch: string;
  /**
   * Where an index of `base` may be kept between checks (a worker's base never changes): read-only when present, made
   * once otherwise. It holds object ids only; a changed one can make `--check` wrong, never git's reading of the patch.
   */
  baseIndex?: string;
}

const READ = ["--numstat", "--summary", "-z", "--whitespace=nowarn", "-"];

/**
 * The patch checked against git's reading and applied to `base` in a private index (`--check`: nothing is written).
 * A binary section over a file that is text at the base, and text after the patch, gets its change decoded as text.
 */
export function checkFrozenPatch(input: FrozenPatchInput, scope?: WorkerGit): PatchIntegrity {
  // `scope`: the capture's own pinned git over the same objects and base (only the index is used, never its work tree).
  const within = <T>(fn: (git: WorkerGit) => T): T =>
    scope ? fn(scope) : withObjectGit(input.objects, input.base, fn);
  return within((git) => {
    if (input.patch === "") return resolvePatchIntegrity("", { numstat: [], summary: "" });
    const index = baseIndexFor(git, input);
    if (typeof index !== "string") return index;
    const r = git.run(["apply", "--cached", "--check", ...READ], { input: input.patch, index });
    if (r.status !== 0)
      return {
        ok: false,
        reason: `git cannot apply it to its base ${input.base.slice(0, 12)} (${firstLine(r.stderr)})`,
      };
    const checked = resolvePatchIntegrity(input.patch, parseGitReading(r.stdout.toString("utf8")));
    if (!checked.ok || !checked.files.some((f) => f.binary && !f.special)) return checked;
    const scratch = git.privateIndex("decode.index");
    copyFileSync(index, scratch);
    return { ...checked, files: decodeBinaryText(git, scratch, input, checked.files) };
  });
}

/** The index of the base: the kept one when it is there, else read into a private index (and kept, when asked). */
function baseIndexFor(git: WorkerGit, input: FrozenPatchInput): string | { ok: false; reason: string } {
  if (input.baseIndex && lstatSync(input.baseIndex, { throwIfNoEntry: false })?.isFile()) return input.baseIndex;
  const index = git.privateIndex("base.index");
  const r = git.run(["read-tree", input.base], { index });
  if (r.status !== 0)
    return { ok: false, reason: `its base ${input.base.slice(0, 12)} cannot be read (${firstLine(r.stderr)})` };
  if (!input.baseIndex) return index;
  try {
    copyFileSync(index, `${input.baseIndex}.${process.pid}`);
    renameSync(`${input.baseIndex}.${process.pid}`, input.baseIndex);
  } catch {
    // Not kept (a read-only or vanished git dir): the next check reads the base again; only speed is lost.
  }
  return index;
}

/** git's reading of the patch bytes alone (no base needed): what promote re-checks a frozen file list against. */
export function readFrozenPatch(patch: string): PatchIntegrity {
  if (patch === "") return resolvePatchIntegrity("", { numstat: [], summary: "" });
  return withObjectGit(undefined, "0".repeat(40), (git) => {
    const r = git.run(["apply", ...READ], { input: patch });
    if (r.status !== 0) return { ok: false, reason: `git cannot read it (${firstLine(r.stderr)})` };
    return resolvePatchIntegrity(patch, parseGitReading(r.stdout.toString("utf8")));
  });
}

const firstLine = (s: string): string => s.trim().split("\n")[0] || "no reason given";
const isText = (b: Buffer): boolean => !b.includes(0) && !b.toString("utf8").includes("\uFFFD");

function blobAt(git: WorkerGit, spec: string, index?: string): string | undefined {
  const r = git.run(["rev-parse", "--verify", "--quiet", spec], { index });
  return r.status === 0 ? r.stdout.toString("utf8").trim() : undefined;
}

function blobDiff(git: WorkerGit, before: string, after: string): string | undefined {
  const diff = git.run(["diff", "--no-ext-diff", "--no-textconv", "--no-color", before, after]).stdout.toString("utf8");
  const at = diff.indexOf("\n@@ ");
  return at === -1 ? undefined : diff.slice(at + 1);
}

/** A deleted text file as one hunk of removed lines. */
function wholeFileHunk(text: string): string {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return `@@ -1,${lines.length} +0,0 @@\n${lines.map((l) => `-${l}\n`).join("")}`;
}

/** Applies the patch in the private index and diffs base blob → patched blob for each binary file that is text on both sides. */
function decodeBinaryText(
  git: WorkerGit,
  index: string,
  input: FrozenPatchInput,
  files: ChangeSetFile[],
): ChangeSetFile[] {
  if (git.run(["apply", "--cached", "--whitespace=nowarn", "-"], { input: input.patch, index }).status !== 0)
    return files;
  return files.map((f) => {
    if (!f.binary || f.special) return f;
    const before = blobAt(git, `${input.base}:${f.path}`);
    const after = blobAt(git, `:0:${f.path}`, index);
    if (!before) return f; // a file the patch creates was not text at the base: nothing to warn about
    const old = git.run(["cat-file", "blob", before]);
    const now = after ? git.run(["cat-file", "blob", after]) : undefined;
    if (old.status !== 0 || !isText(old.stdout) || (now && (now.status !== 0 || !isText(now.stdout)))) return f;
    const decoded = now ? blobDiff(git, before, after!) : wholeFileHunk(old.stdout.toString("utf8"));
    if (decoded === undefined) return f;
    const lines = decoded.split("\n");
    return {
      ...f,
      decoded,
      additions: lines.filter((l) => l.startsWith("+")).length,
      deletions: lines.filter((l) => l.startsWith("-")).length,
    };
  });
}
