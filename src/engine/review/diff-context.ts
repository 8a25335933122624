// Expanding the unchanged lines a frozen patch leaves out: read from the worker's base commit by path, checked
// against the blob id the patch names, so the lines shown are the exact pre-image the patch was made against.

import { contextGaps, type DiffFile } from "../../domain/deliverables/diff-files.js";
import { patchFilesOf } from "./comments.js";
import { notFound, refusal, validationError } from "../../domain/errors.js";
import type { EngineContext } from "../context.js";
import { resolveReviewTarget } from "./target.js";
import { workerRefOf } from "./deliverables.js";
import { resolveReviewable } from "./reviewable.js";
import { shownDiffFiles } from "../../domain/deliverables/shown-patch.js";

export interface ContextInput {
  /** An exact `worker-deliverable:w<N>:<K>` or `combined:w<N>+w<M>:<K>`. */
  ref: string;
  file: number;
  /** Which gap: `contextGaps(file)[gap]`. */
  gap: number;
  /** First old line wanted (default: the gap's start); at most `limit` lines are returned. */
  from?: number;
  limit?: number;
}

export interface ContextLines {
  lines: { oldNo: number; newNo: number; text: string }[];
  /** Old lines of this gap after the last one returned (0 when the gap is done). */
  rest: number;
}

const MAX_LINES = 2_000;

/** The frozen patch of one exact version as per-file data (a surface may cache it by ref: sidecars never change). */
export function frozenDiffFiles(ctx: EngineContext, ref: string): { ref: string; files: DiffFile[] } {
  const target = resolveReviewTarget(ctx, workerRefOf(ref));
  return { ref: target.pointer.ref, files: patchFilesOf(target.deliverable) };
}

export function frozenContext(ctx: EngineContext, input: ContextInput, files?: DiffFile[]): ContextLines {
  const target = resolveReviewable(ctx, { target: input.ref }, "diff"); // a worker's version or a combined one
  const cs = target.changeSet;
  const all = files ?? shownDiffFiles(cs);
  const file = all[input.file];
  if (!file) throw notFound("no-such-file", `${target.pointer.ref} has no file #${input.file}`);
  const gap = contextGaps(file)[input.gap];
  if (!gap)
    throw notFound("no-such-gap", `file #${input.file} of ${target.pointer.ref} has no hidden lines at #${input.gap}`);
  const base = cs?.base || target.worker?.worker.base;
  if (!base || !file.oldBlob)
    throw refusal(
      "context-unavailable",
      `the unchanged lines of ${file.oldPath} are not in the frozen patch and its base is unknown`,
    );
  const read = ctx.git.readBlobAt(target.projectRoot, base, file.oldPath, file.oldBlob);
  if (!read.ok)
    throw refusal("context-unavailable", `cannot show the unchanged lines of ${file.oldPath}: ${read.reason}`);
  if (read.bytes.includes(0)) throw refusal("context-unavailable", `${file.oldPath} is binary at the base`);
  const old = read.bytes.toString("utf8").split("\n");
  if (old.at(-1) === "") old.pop();
  const end = Math.min(gap.oldTo ?? old.length, old.length);
  const from = input.from ?? gap.oldFrom;
  if (!Number.isInteger(from) || from < gap.oldFrom || from > Math.max(end, gap.oldFrom)) {
    throw validationError(
      "bad-context-range",
      `line ${from} is outside the hidden lines ${gap.oldFrom}–${end} of file #${input.file}`,
    );
  }
  const limit = Math.min(Math.max(1, input.limit ?? MAX_LINES), MAX_LINES);
  const to = Math.min(end, from + limit - 1);
  const shift = gap.newFrom - gap.oldFrom;
  const lines = [];
  for (let n = from; n <= to; n++) lines.push({ oldNo: n, newNo: n + shift, text: old[n - 1]! });
  return { lines, rest: Math.max(0, end - to) };
}
