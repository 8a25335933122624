// A worker's answer to a review comment in its docket_done (`addressed: [{comment, note}]`): checked and trimmed here.
// The card shows an answer only beside a comment the human really sent this worker; other ids are kept but never shown.

import { validationError } from "../errors.js";
import { findControlCharacter } from "../work/message-text.js";
import type { AddressedComment } from "../deliverables/deliverable.js";

export const MAX_ADDRESSED = 200;
const COMMENT_ID = /^cm[1-9][0-9]{0,11}$/;

export function checkAddressed(input: unknown, preface = ""): AddressedComment[] {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input))
    throw validationError("addressed-invalid", `${preface}addressed must be a list of {comment, note}`);
  if (input.length > MAX_ADDRESSED)
    throw validationError(
      "addressed-invalid",
      `${preface}at most ${MAX_ADDRESSED} addressed entries; got ${input.length}`,
    );
  return input.map((e: unknown, i) => {
    const entry = (typeof e === "object" && e !== null ? e : {}) as Record<string, unknown>;
    const comment = typeof entry.comment === "string" ? entry.comment.trim() : "";
    const note = typeof entry.note === "string" ? entry.note.trim() : "";
    if (!COMMENT_ID.test(comment))
      throw validationError(
        "addressed-invalid",
        `${preface}addressed[${i}].comment must be a comment id such as cm3 (from the revision message); got ${JSON.stringify(entry.comment ?? null)}`,
      );
    if (note === "" || note.length > 4_000)
      throw validationError(
        "addressed-invalid",
        `${preface}addressed[${i}].note must say what you did about ${comment} (1–4000 characters)`,
      );
    const control = findControlCharacter(note);
    if (control)
      throw validationError(
        "addressed-invalid",
        `${preface}addressed[${i}].note contains control character ${control.codePoint} at character ${control.position}; only newline and tab are allowed`,
      );
    return { comment, note };
  });
}
