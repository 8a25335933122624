// What one revise sends beside its note: every draft comment of that exact version, each re-checked against the
// bytes the revise judged (a draft written on other bytes is refused, never sent), with its quoted patch lines.

import { contentMismatch } from "../../domain/review/content-binding.js";
import { quotedLines } from "../../domain/review/comment-anchor.js";
import type { RevisionComment } from "../../domain/review/revision-message.js";
import { commentsOfRef } from "../../ledger/review/comments.js";
import type { Db } from "../../ledger/core/open.js";
import { targetFiles } from "./comments.js";
import type { ReviewTarget } from "./target.js";

/** The drafts a revise of `target` sends: none when it names an older version (its drafts are outdated, never sent). */
export function draftsToSend(db: Db, target: ReviewTarget): RevisionComment[] {
  if (target.pointer.ref !== target.current.ref) return [];
  const drafts = commentsOfRef(db, target.pointer.ref, ["draft"]);
  if (drafts.length === 0) return [];
  const files = targetFiles(target);
  return drafts.map((c) => {
    const mismatch = contentMismatch({
      ref: target.pointer.ref,
      file: target.path,
      expected: c.sha256,
      actual: target.sha256,
    });
    if (mismatch) throw mismatch;
    return { id: c.id, anchor: c.anchor, text: c.text, quoted: quotedLines(files, c.anchor) };
  });
}

/** Drafts left on an older version named by a revise: said beside the decision, since they are not sent. */
export function outdatedDraftCount(db: Db, target: ReviewTarget): number {
  return target.pointer.ref === target.current.ref ? 0 : commentsOfRef(db, target.pointer.ref, ["draft"]).length;
}
