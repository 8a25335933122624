// Worker text as a terminal may draw it: every code point that can drive a terminal or hide text becomes a visible mark.
// One rule for every human surface (the CLI's Io, pi's card, dock and notices); newline and tab pass.

/**
 * What a worker could use to drive a terminal or hide text: C0 controls except tab and newline, DEL, C1 controls (8-bit
 * CSI/OSC included), the soft hyphen, bidi marks, embeddings, overrides and isolates, zero-width characters, line and
 * paragraph separators, invisible operators, the BOM, interlinear annotations, tag characters and lone surrogates.
 */
const HIDDEN =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}\ud800-\udfff]/gu;

const hex = (cp: number): string => cp.toString(16).toUpperCase().padStart(4, "0");

/** The mark one hidden code point is drawn as: a C0 control as its control picture (`␛`, `␍`, `␇`), DEL as `␡`, the rest as `⟨U+202E⟩`. */
export function visibleMark(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20) return String.fromCodePoint(0x2400 + cp);
  if (cp === 0x7f) return "\u2421";
  return `\u27e8U+${hex(cp)}\u27e9`;
}

/** Text with every hidden code point drawn visibly; newline and tab are kept, everything else passes unchanged. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, visibleMark);
}

/**
 * A JSON document with the same hidden code points written as `\uXXXX` escapes: it parses to exactly the same value
 * (JSON.stringify already escapes C0 controls, not C1 or bidi), so `--json` keeps the bytes and a terminal sees none.
 * Only valid on JSON text: there, such a code point can only stand inside a string literal.
 */
export function visibleJson(json: string): string {
  return json.replace(HIDDEN, (ch) =>
    [...Array(ch.length).keys()].map((i) => `\\u${hex(ch.charCodeAt(i)).toLowerCase()}`).join(""),
  );
}
