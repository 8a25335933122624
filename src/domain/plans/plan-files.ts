// Reads the explicit `files:` / `file:` clauses of plan steps into repo paths.
// Files come only from such a clause, never from prose (docs/decisions/plans.md): cleaned, de-duplicated, linear in the
// line length.

const CLAUSE = /files?(?:\*\*|__)?\s*:(?!\/\/)(?:\*\*|__)?[ \t]*/gi;
/** What may not stand right before `files:` (so `profile:` or `my-file:` is no clause). */
const WORD_CHAR = /[A-Za-z0-9_./-]/;
const STOPWORDS = new Set([
  "none",
  "n/a",
  "na",
  "tbd",
  "tba",
  "-",
  "—",
  "–",
  "and",
  "or",
  "plus",
  "&",
  "e.g",
  "i.e",
  "etc",
  "new",
  "various",
  "several",
  "same",
]);
const CLOSER: Record<string, string> = { "(": ")", "[": "]" };
/** A token that needs no cleaning: no quotes, emphasis, brackets, leading `./` or trailing punctuation. */
const CLEAN = /^(?!\.\/)[A-Za-z0-9_@~+./-]*[A-Za-z0-9_@~+/-]$/;

const looksLikePath = (t: string): boolean => t.includes("/") || /\.[A-Za-z0-9]{1,12}$/.test(t);

const count = (s: string, ch: string): number => {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
};

const QUOTES = "`\"'";
const TRAILING = ".,;:!?";

/** Strips quotes, emphasis, unbalanced brackets, trailing punctuation and a leading `./` (linear, no backtracking). */
export function cleanPlanPath(token: string): string {
  if (CLEAN.test(token)) return token;
  let t = token.trim();
  for (let guard = 0; guard < 8; guard++) {
    const before = t;
    let a = 0;
    let z = t.length;
    while (a < z && QUOTES.includes(t[a]!)) a++;
    while (z > a && QUOTES.includes(t[z - 1]!)) z--;
    let stars = a;
    while (stars < z && t[stars] === "*") stars++;
    if (stars > a && stars < z && /[A-Za-z0-9_.-]/.test(t[stars]!) && !(t[stars] === "." && t.includes("*", stars)))
      a = stars;
    let tail = z;
    while (tail > a && t[tail - 1] === "*") tail--;
    if (tail < z && tail > a && t[tail - 1] !== "/") z = tail;
    while (z > a && TRAILING.includes(t[z - 1]!)) z--;
    t = t.slice(a, z);
    if (t.endsWith(")") && count(t, ")") > count(t, "(")) t = t.slice(0, -1);
    if (t.endsWith("]") && count(t, "]") > count(t, "[")) t = t.slice(0, -1);
    if (t.startsWith("(") && count(t, "(") > count(t, ")")) t = t.slice(1);
    if (t.startsWith("[") && count(t, "[") > count(t, "]")) t = t.slice(1);
    while (t.startsWith("./")) t = t.slice(2);
    if (t === before) break;
  }
  return t;
}

/** Separators inside a clause value: `,` and `;` end a part, whitespace ends a token. */
const isPartEnd = (c: number): boolean => c === 44 || c === 59;
const isSpace = (c: number): boolean => c === 32 || c === 9;

/** The paths of one clause value: split on `,`/`;`; per part the first token, plus later tokens that look like paths. */
export function parseFilesList(value: string): string[] {
  const out: string[] = [];
  let tokens: { text: string; quoted: boolean }[] = [];
  const flush = (): void => {
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i]!;
      const path = cleanPlanPath(tok.text);
      if (path === "" || (path.length <= 8 && STOPWORDS.has(path.toLowerCase()))) continue;
      const keep = tok.quoted || looksLikePath(path) || (i === 0 && tokens.length === 1);
      if (keep && !out.includes(path)) out.push(path);
    }
    tokens = [];
  };
  const n = value.length;
  let i = 0;
  while (i < n) {
    const c = value.charCodeAt(i);
    if (isPartEnd(c)) {
      flush();
      i++;
      continue;
    }
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 96 || c === 34) {
      const close = value.indexOf(value[i]!, i + 1);
      if (close > i) {
        tokens.push({ text: value.slice(i + 1, close).trim(), quoted: true });
        i = close + 1;
        continue;
      }
    }
    let j = i + 1;
    while (j < n && !isSpace(value.charCodeAt(j)) && !isPartEnd(value.charCodeAt(j))) j++;
    tokens.push({ text: value.slice(i, j), quoted: false });
    i = j;
  }
  flush();
  return out;
}

interface Clause {
  start: number;
  valueStart: number;
  valueEnd: number;
  end: number;
}

/** Every `files:` clause in a line; a clause opened inside `(`/`[` ends at its closer, otherwise at the line's end. */
function findClauses(line: string): Clause[] {
  const clauses: Clause[] = [];
  CLAUSE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CLAUSE.exec(line)) !== null) {
    let start = m.index;
    const valueStart = m.index + m[0].length;
    if (start >= 2 && (line.startsWith("**", start - 2) || line.startsWith("__", start - 2))) start -= 2;
    if (start > 0 && WORD_CHAR.test(line[start - 1]!)) continue;
    let k = start - 1;
    while (k >= 0 && (isSpace(line.charCodeAt(k)) || line[k] === "*" || line[k] === "_")) k--;
    const opener = k >= 0 ? CLOSER[line[k]!] : undefined;
    let valueEnd = line.length;
    let end = line.length;
    if (opener !== undefined) {
      const close = line.indexOf(opener, valueStart);
      if (close >= 0) {
        valueEnd = close;
        end = close + 1;
      }
    }
    clauses.push({ start: opener !== undefined ? k : start, valueStart, valueEnd, end });
    if (end >= line.length) break;
    CLAUSE.lastIndex = Math.max(end, CLAUSE.lastIndex);
  }
  return clauses;
}

export interface FilesClauseRead {
  files: string[];
  text: string;
  open: boolean;
}

/** One pass over a line: its clause paths, the line without its clauses, and whether it ends with an empty clause. */
export function readFilesClauses(line: string): FilesClauseRead {
  const clauses = findClauses(line);
  if (clauses.length === 0) return { files: [], text: line.trim(), open: false };
  const files: string[] = [];
  for (const c of clauses)
    for (const f of parseFilesList(line.slice(c.valueStart, c.valueEnd))) if (!files.includes(f)) files.push(f);
  return { files, text: stripClauses(line, clauses), open: isOpen(line, clauses) };
}

function isOpen(line: string, clauses: Clause[]): boolean {
  const last = clauses[clauses.length - 1];
  return (
    last !== undefined && last.valueEnd === line.length && line.slice(last.valueStart).replace(/[*_\s]/g, "") === ""
  );
}

function stripClauses(text: string, clauses: Clause[]): string {
  if (clauses.length === 0) return text.trim();
  let out = "";
  let at = 0;
  for (const c of clauses) {
    out += text.slice(at, c.start);
    at = c.end;
  }
  out += text.slice(at);
  let z = out.length;
  while (z > 0 && " \t-–—:,;".includes(out[z - 1]!)) z--;
  const stripped = out
    .slice(0, z)
    .replace(/\s{2,}/g, " ")
    .trim();
  return stripped === "" ? text.trim() : stripped;
}
