// A deliberately tiny frontmatter reader for kind files: `key: value`, lists, booleans, quoted strings, blocks.
// Kind files are untrusted text, so it never evaluates anything and reports every problem as a value.

export type FrontmatterValue = string | string[];

export interface FrontmatterEntry {
  key: string;
  value: FrontmatterValue;
  line: number;
}

export type FrontmatterResult = { ok: true; entries: FrontmatterEntry[]; body: string } | { ok: false; error: string };

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:(?:\s+(.*)|\s*)$/;
const LIST_ITEM = /^\s*-(?:\s+(.*)|\s*)$/;
const BLOCK = /^([|>])[-+]?$/;

/**
 * Splits `---\n<frontmatter>\n---\n<body>`. Accepted value forms: plain text, "double" or 'single' quoted
 * strings, `[a, "b, c"]` inline lists, `- item` lines under an empty key, and `|` / `>` indented blocks.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { ok: false, error: "kind file must start with a --- frontmatter block" };
  const end = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (end === -1) return { ok: false, error: "frontmatter block is not closed with ---" };
  const entries: FrontmatterEntry[] = [];
  const seen = new Set<string>();
  let i = 1;
  while (i < end) {
    const raw = lines[i]!;
    const lineNo = i + 1;
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) {
      i++;
      continue;
    }
    const m = KEY_LINE.exec(raw);
    if (!m) return { ok: false, error: `line ${lineNo}: expected "key: value", got ${JSON.stringify(clip(raw))}` };
    const key = m[1]!;
    if (seen.has(key)) return { ok: false, error: `line ${lineNo}: key ${key} appears twice` };
    seen.add(key);
    const rest = stripComment(m[2] ?? "").trim();
    i++;
    if (rest === "") {
      const items: string[] = [];
      while (i < end && (LIST_ITEM.test(lines[i]!) || lines[i]!.trim() === "")) {
        const item = LIST_ITEM.exec(lines[i]!);
        if (item) {
          const v = parseScalar(stripComment(item[1] ?? "").trim());
          if (!v.ok) return { ok: false, error: `line ${i + 1}: ${v.error}` };
          if (v.value !== "") items.push(v.value);
        }
        i++;
      }
      entries.push({ key, value: items.length > 0 ? items : "", line: lineNo });
      continue;
    }
    const block = BLOCK.exec(rest);
    if (block) {
      const collected: string[] = [];
      while (i < end && (lines[i]!.trim() === "" || /^\s/.test(lines[i]!))) collected.push(lines[i++]!);
      entries.push({ key, value: foldBlock(collected, block[1] === ">"), line: lineNo });
      continue;
    }
    if (rest.startsWith("[")) {
      const list = parseInlineList(rest);
      if (!list.ok) return { ok: false, error: `line ${lineNo}: ${list.error}` };
      entries.push({ key, value: list.value, line: lineNo });
      continue;
    }
    const v = parseScalar(rest);
    if (!v.ok) return { ok: false, error: `line ${lineNo}: ${v.error}` };
    entries.push({ key, value: v.value, line: lineNo });
  }
  return {
    ok: true,
    entries,
    body: lines
      .slice(end + 1)
      .join("\n")
      .trim(),
  };
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseScalar(text: string): Parsed<string> {
  if (text.startsWith('"')) {
    if (text.length < 2 || !text.endsWith('"')) return { ok: false, error: `unterminated "quoted" string` };
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === "string") return { ok: true, value };
    } catch {
      // falls through to the refusal below
    }
    return { ok: false, error: `bad escape in "quoted" string ${JSON.stringify(clip(text))}` };
  }
  if (text.startsWith("'")) {
    if (text.length < 2 || !text.endsWith("'")) return { ok: false, error: `unterminated 'quoted' string` };
    return { ok: true, value: text.slice(1, -1).replace(/''/g, "'") };
  }
  return { ok: true, value: text };
}

function parseInlineList(text: string): Parsed<string[]> {
  if (!text.endsWith("]"))
    return { ok: false, error: `inline list ${JSON.stringify(clip(text))} is not closed with ]` };
  const inner = text.slice(1, -1);
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const ch of inner) {
    if (quote) {
      if (ch === quote) quote = null;
      current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (ch === ",") {
      parts.push(current);
      current = "";
    } else current += ch;
  }
  if (quote) return { ok: false, error: "unterminated quoted string in inline list" };
  parts.push(current);
  const values: string[] = [];
  for (const part of parts) {
    const v = parseScalar(part.trim());
    if (!v.ok) return v;
    if (v.value !== "") values.push(v.value);
  }
  return { ok: true, value: values };
}

/** `#` starts a comment only after whitespace and outside quotes (so `a#b` and "x # y" survive). */
function stripComment(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      if (i === 0 || /\s|\[|,/.test(text[i - 1]!)) quote = ch;
    } else if (ch === "#" && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i);
  }
  return text;
}

function foldBlock(lines: string[], folded: boolean): string {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^\s*/.exec(l)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  const body = lines.map((l) => l.slice(cut).trimEnd());
  while (body.length > 0 && body[body.length - 1] === "") body.pop();
  if (!folded) return body.join("\n");
  return body.join("\n").replace(/([^\n])\n(?=[^\n])/g, "$1 ");
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
