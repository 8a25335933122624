// HTML from untrusted text: every interpolated value is escaped unless it is an `Html` value, which only the
// renderers that escape themselves (markdown-it with raw HTML off, highlight.js, this module) ever produce.

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const SPECIAL = /[&<>"']/g;
// C0 controls other than tab and newline, and DEL: shown as the Unicode control pictures, never passed raw.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
const HAS_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  const s = HAS_CONTROL.test(text)
    ? text.replace(CONTROL, (c) => (c === "\u007f" ? "\u2421" : String.fromCharCode(0x2400 + c.charCodeAt(0))))
    : text;
  return s.replace(SPECIAL, (c) => ENTITIES[c]!);
}

/** Marks a string as already-safe HTML. Only for output of the escaping renderers named in the header. */
export const trusted = (safe: string): Html => new Html(safe);

export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(value: Part): string {
  if (value === null || value === undefined || value === false || value === true) return "";
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** A template whose interpolations are escaped (arrays joined, null/undefined/booleans dropped). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}
