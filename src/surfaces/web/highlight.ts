// Syntax highlighting of diff text with highlight.js (its common languages, chosen by file name): a side of a hunk
// is highlighted as one block so strings and comments spanning lines stay right, then cut back into lines.

import hljs from "highlight.js/lib/common";
import { escapeHtml } from "./html.js";

const BY_NAME: Record<string, string> = { Makefile: "makefile", Dockerfile: "dockerfile", "CMakeLists.txt": "cmake" };
const MAX_LINE = 2_000;
const MAX_BLOCK = 400_000;

/** highlight.js's language for a path, or undefined (plain text). */
export function languageOf(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const ext = name.slice(dot + 1).toLowerCase();
  return hljs.getLanguage(ext) ? ext : undefined;
}

/** Each line's HTML (escaped); highlighted when a language is known and the text is of a sane size. */
export function highlightLines(lines: readonly string[], language: string | undefined): string[] {
  if (!language || lines.length === 0 || lines.some((l) => l.length > MAX_LINE)) return lines.map(escapeHtml);
  const block = lines.join("\n");
  if (block.length > MAX_BLOCK) return lines.map(escapeHtml);
  const out = splitLines(hljs.highlight(block, { language, ignoreIllegals: true }).value);
  return out.length === lines.length ? out : lines.map(escapeHtml);
}

/** Cuts highlight.js output at newlines, closing the open spans at each line end and reopening them on the next. */
export function splitLines(highlighted: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let cur = "";
  const tag = /<span class="[^"]*">|<\/span>|\n/g;
  let at = 0;
  for (let m = tag.exec(highlighted); m; m = tag.exec(highlighted)) {
    cur += highlighted.slice(at, m.index);
    at = m.index + m[0].length;
    if (m[0] === "\n") {
      lines.push(cur + "</span>".repeat(open.length));
      cur = open.join("");
    } else if (m[0] === "</span>") {
      open.pop();
      cur += m[0];
    } else {
      open.push(m[0]);
      cur += m[0];
    }
  }
  lines.push(cur + highlighted.slice(at));
  return lines;
}
