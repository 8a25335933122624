// A path as git writes it in its own output (core.quotePath on): plain when harmless, else C-quoted on one line.
// Docket writes paths this way into text workers and models read, so a file name can never start a new line.

const ESCAPES: Record<number, string> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  34: '\\"',
  92: "\\\\",
};

const needsQuote = (b: number): boolean => b < 0x20 || b === 0x22 || b === 0x5c || b >= 0x7f;

/**
 * `src/a.ts` stays as it is; `"a\nb.ts"`, `"caf\303\251.md"` or `"\342\200\256txt.exe"` are quoted like git's quote_c_style:
 * the named escapes, and every other control or non-ASCII byte of the UTF-8 form as a three-digit octal escape.
 */
export function quotePath(path: string): string {
  const bytes = new TextEncoder().encode(path);
  if (!bytes.some(needsQuote)) return path;
  let out = '"';
  for (const b of bytes) {
    if (!needsQuote(b)) out += String.fromCharCode(b);
    else out += ESCAPES[b] ?? `\\${b.toString(8).padStart(3, "0")}`;
  }
  return `${out}"`;
}
