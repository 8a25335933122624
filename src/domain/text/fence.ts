// Worker text placed inside text Docket writes for workers and models: fenced so it can neither close its wrapper nor
// forge a section, a frame or a heading of Docket's own (journal, broadcasts, consults, chips: docs/hostile-text.md).

import { visibleText } from "./visible-text.js";

/** Everything a reader (markdown, a model, a terminal) may take as a line break. */
const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/;

/** The lines of a text, split at every kind of line break. */
export function textLines(text: string): string[] {
  return text.split(LINE_BREAK);
}

/**
 * Worker text as a quoted block: every line begins with `> `, so none can begin a heading (`## …`), an inbox frame
 * (`[docket · …]`) or any other line Docket's wrappers start with; hidden code points are drawn visibly.
 */
export function quoteBlock(text: string): string {
  return textLines(text)
    .map((l) => (l === "" ? ">" : `> ${visibleText(l)}`))
    .join("\n");
}

/** Worker text squashed onto one line (every run of whitespace, line breaks included, becomes one space). */
export function oneLine(text: string): string {
  return text.split(LINE_BREAK).join(" ").replace(/\s+/g, " ").trim();
}

/** A markdown code fence longer than every run of backticks in `text`, so no line of it can close the fence. */
export function codeFence(text: string, info = ""): { open: string; close: string } {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return { open: `${fence}${info}`, close: fence };
}

/**
 * A wrapper tag name the wrapped texts cannot contain: `base` plus a random suffix from `draw` (the caller's randomness,
 * drawn after the texts were written, so a worker cannot predict it), drawn again in the rare case a text holds it.
 */
export function boundaryTag(base: string, draw: () => string, texts: readonly string[]): string {
  for (let attempt = 0; attempt < 16; attempt++) {
    const nonce = draw();
    if (!/^[a-z0-9]{8,}$/.test(nonce))
      throw new Error(`a wrapper boundary needs at least 8 lowercase letters or digits, got ${JSON.stringify(nonce)}`);
    if (!texts.some((t) => t.includes(nonce))) return `${base}-${nonce}`;
  }
  throw new Error("no wrapper boundary absent from the wrapped text after 16 draws; the random source is broken");
}
