// Text the human sends into a worker (tell, answer, revise): newline and tab pass, every other control character is refused.
// A C0/C1 byte pasted into a pane is a keystroke (Ctrl-C, Ctrl-\, an escape sequence), not text.

import { validationError } from "../errors.js";

const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;

/** The first control character other than newline and tab, with its 1-based character position. */
export function findControlCharacter(text: string): { position: number; codePoint: string } | undefined {
  const m = CONTROL.exec(text);
  if (!m) return undefined;
  const code = m[0].codePointAt(0)!;
  return {
    position: [...text.slice(0, m.index)].length + 1,
    codePoint: `U+${code.toString(16).toUpperCase().padStart(4, "0")}`,
  };
}

/** Refuses text with a control character other than newline and tab; nothing is queued or pasted. */
export function assertNoControlCharacters(text: string, what: string): void {
  const found = findControlCharacter(text);
  if (!found) return;
  throw validationError(
    "control-character",
    `the ${what} contains control character ${found.codePoint} at character ${found.position}; only newline and tab are allowed, nothing was sent`,
    "remove the control character and send the text again",
  );
}

/** One message's text as stored: CRLF made LF, trailing spaces of each line and blank lines at either end dropped. */
export function normalizeMessageText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/^\n+|\n+$/g, "");
}
