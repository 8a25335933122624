// The one revision message a worker receives: the human's note and every draft comment of that exact version, each
// with its file, side, line range and the quoted lines of the frozen patch, so nothing has to be retyped.

import { formatAnchor, type CommentAnchor } from "./comment-anchor.js";

export interface RevisionComment {
  id: string;
  anchor: CommentAnchor;
  text: string;
  /** The anchored lines as the frozen patch shows them. */
  quoted: string[];
}

// Quoted lines and paths are the worker's own bytes: a control byte pasted into a pane is a keystroke, so it is shown
// as U+FFFD (the human's note and comments are refused with one instead, before anything is sent).
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;
const printable = (text: string): string => text.replace(CONTROL, "\uFFFD");

/** The message body: the same first line as a note-only revision, then the note, then the comments. */
export function formatRevisionMessage(input: {
  ref: string;
  version: number;
  note: string | undefined;
  comments: readonly RevisionComment[];
}): string {
  const out = [`Request revision for ${input.ref} (version ${input.version}):`];
  if (input.note !== undefined) out.push(input.note);
  if (input.comments.length === 0) return out.join("\n");
  const n = input.comments.length;
  out.push("", `${n} comment${n === 1 ? "" : "s"} on the frozen patch of version ${input.version}:`);
  for (const c of input.comments) {
    out.push("", `[${c.id}] ${printable(formatAnchor(c.anchor))}`);
    for (const q of c.quoted) out.push(`  > ${printable(q)}`);
    out.push(...c.text.split("\n").map((l) => `  ${l}`));
  }
  out.push(
    "",
    `When you publish the next version, you may answer each comment in docket_done's \`addressed\`: [{"comment": "${input.comments[0]!.id}", "note": "what you did"}].`,
  );
  return out.join("\n");
}
