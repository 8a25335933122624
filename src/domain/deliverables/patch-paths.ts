// Paths inside `git diff` output: C-quoted names, the two halves of a `diff --git` header, `a/` `b/` prefixes.
// Pure text decoding shared by every patch reader; a path it cannot read comes back undefined, never thrown.

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/** Decodes a git C-quoted path (`"a/caf\303\251"`), octal escapes being UTF-8 bytes. */
export function unquote(text: string): { value: string; rest: string } | undefined {
  if (!text.startsWith('"')) return undefined;
  const bytes: number[] = [];
  let i = 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') return { value: new TextDecoder().decode(new Uint8Array(bytes)), rest: text.slice(i + 1) };
    if (ch === "\\" && i + 1 < text.length) {
      const next = text[i + 1]!;
      const octal = /^[0-7]{3}/.exec(text.slice(i + 1, i + 4));
      if (octal) {
        bytes.push(parseInt(octal[0], 8));
        i += 4;
        continue;
      }
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      i += 2;
      continue;
    }
    bytes.push(...new TextEncoder().encode(ch));
    i++;
  }
  return undefined;
}

/** A path as it appears after `--- `, `+++ `, `rename from ` …: quoted or plain, git's trailing tab removed. */
export function readPath(text: string): string {
  const q = unquote(text);
  if (q) return q.value;
  return text.endsWith("\t") ? text.slice(0, -1) : text;
}

export const stripPrefix = (p: string): string => (p.startsWith("a/") || p.startsWith("b/") ? p.slice(2) : p);

/** Both paths of `diff --git a/X b/Y`; plain paths with spaces are split where the two halves agree. */
export function readGitHeader(rest: string): { oldPath: string; newPath: string } | undefined {
  const q = unquote(rest);
  if (q) {
    const second = q.rest.trimStart();
    const q2 = unquote(second);
    return { oldPath: stripPrefix(q.value), newPath: stripPrefix(q2 ? q2.value : second) };
  }
  const q2 = /^(.*?) ("b\/.*)$/.exec(rest);
  if (q2) {
    const second = unquote(q2[2]!);
    if (second) return { oldPath: stripPrefix(q2[1]!), newPath: stripPrefix(second.value) };
  }
  if (rest.length % 2 === 1) {
    const half = (rest.length - 1) / 2;
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (stripPrefix(a) === stripPrefix(b)) return { oldPath: stripPrefix(a), newPath: stripPrefix(b) };
  }
  const split = rest.indexOf(" b/");
  if (split > 0) return { oldPath: stripPrefix(rest.slice(0, split)), newPath: rest.slice(split + 3) };
  return undefined;
}
