// The frozen diff of one version as a page reads it: every file's head (the tree, each header, the sizes that decide
// what is collapsed) counted up front without building a line, and one file's rows parsed only when that file is asked
// for. The same files patchFilesOf gives, head for head and row for row (text frozen as binary shown decoded).

import type { ChangeSet, WorkerDeliverable } from "../../domain/deliverables/deliverable.js";
import {
  pairExactRenames,
  parseDiffHeads,
  parseDiffSections,
  type DiffFile,
  type DiffFileHead,
} from "../../domain/deliverables/diff-files.js";
import { shownPatch, splitSections } from "../../domain/deliverables/shown-patch.js";
import type { EngineContext } from "../context.js";
import { resolveReviewable } from "./reviewable.js";

export interface ReviewFiles {
  /** Every file, in patch order (`heads[i].index === i`). */
  readonly heads: readonly DiffFileHead[];
  /** The file at `index` with its rows, parsed on the first ask; undefined past the last file. */
  file(index: number): DiffFile | undefined;
}

export const NO_FILES: ReviewFiles = { heads: [], file: () => undefined };

/** Every file with its rows, in order. */
export function everyFile(files: ReviewFiles): DiffFile[] {
  return files.heads.map((h) => files.file(h.index)!);
}

/** Per read change set, built once however many readers ask. */
const built = new WeakMap<ChangeSet, ReviewFiles>();

export function reviewFilesOf(d: Pick<WorkerDeliverable, "changeSet">): ReviewFiles {
  if (!d.changeSet) return NO_FILES;
  let files = built.get(d.changeSet);
  if (!files) built.set(d.changeSet, (files = reviewFiles(d)));
  return files;
}

/** The files of one exact version (a surface may keep them by ref: sidecars never change). */
export function frozenReviewFiles(ctx: EngineContext, ref: string): ReviewFiles {
  return reviewFilesOf(resolveReviewable(ctx, { target: ref }, "diff")); // a worker's version or a combined one
}

function reviewFiles(d: Pick<WorkerDeliverable, "changeSet">): ReviewFiles {
  const shown = shownPatch(d.changeSet);
  if (shown.text === "") return NO_FILES;
  const decoded = new Set(shown.decoded);
  const sections = splitSections(shown.text).flatMap((text) => {
    const head = parseDiffHeads(text)[0];
    return head ? [{ text, head }] : [];
  });
  // Renames are paired over the heads as over whole files; a paired rename has no rows, so it is never parsed.
  const skeletons = sections.map(({ head }, section) => ({ ...head, hunks: [], section }));
  const paired = pairExactRenames(skeletons as DiffFile[]) as (DiffFile & { section: number; lineCount: number })[];
  const marked = (f: DiffFile): DiffFile =>
    decoded.has(f.path) && !f.binary ? { ...f, frozenAsBinary: true as const } : f;
  const heads = paired.map(({ section, lineCount: _, ...f }): DiffFileHead => {
    const own = sections[section]!.head;
    const rename = own.status === "added" && f.status === "renamed";
    const { hunks: __, ...rest } = marked(f);
    return { ...rest, hunks: rename ? [] : own.hunks, lineCount: rename ? 0 : own.lineCount };
  });
  const rows = new Map<number, DiffFile>();
  return {
    heads,
    file(index) {
      const head = heads[index];
      if (!head) return undefined;
      let f = rows.get(index);
      if (!f) {
        const { section, lineCount: _, ...whole } = paired[index]!;
        const rename = sections[section]!.head.status === "added" && whole.status === "renamed";
        rows.set(index, (f = marked(rename ? whole : { ...parseDiffSections(sections[section]!.text)[0]!, index })));
      }
      return f;
    },
  };
}
