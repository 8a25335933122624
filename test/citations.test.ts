// Claim: every citation in a comment resolves inside this repository. A comment under src/, test/, bench/ or scripts/
// that cites a tracker's issue, a section of a design, style or seed document kept elsewhere, or a missing docs/ page fails.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "../..");
const SCANNED = ["src", "test", "bench", "scripts"];
const SOURCE = /\.(ts|js|mjs|sh)$/;

/** Citations of things a reader of this repository cannot open: a tracker, or documents kept outside it. */
const OUTSIDE: { name: string; pattern: RegExp }[] = [
  { name: "an issue number", pattern: /\bissues? #?\d+/i },
  { name: "DESIGN §", pattern: /\bDESIGN(?:\.md)? ?§/ },
  { name: "an ADR", pattern: /\bADR-?\d/ },
  { name: "the anchor's §", pattern: /\banchor ?§/ },
  { name: "a seed", pattern: /\bseeds?(?: \d| ADR|\/)/ },
  { name: "STYLE §", pattern: /\bSTYLE(?:\.md)? ?§/ },
  { name: "a hostile-review break", pattern: /\bbreak \d+\b/ },
  { name: "the shared reference folder", pattern: /\breference\/|\.\.\/shared\b/ },
];
const DOCS_PATH = /(?<![\w./-])docs\/[\w./-]+?\.md\b/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === "node_modules") return [];
    return statSync(p).isDirectory() ? sources(p) : SOURCE.test(n) ? [p] : [];
  });
}

/** Where the first comment on a line starts (`//` or `/*`), skipping string literals; undefined: none. */
function commentStart(line: string): { at: number; block: boolean } | undefined {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
    else if (ch === "/" && line[i + 1] === "/") return { at: i, block: false };
    else if (ch === "/" && line[i + 1] === "*") return { at: i, block: true };
  }
  return undefined;
}

/** The comment text of a source file with its line numbers: `//`, block and JSDoc comments, SQL `--` and shell `#` lines. */
export function commentLines(text: string, shell = false): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let inBlock = false;
  text.split("\n").forEach((line, i) => {
    const trimmed = line.trimStart();
    if (inBlock) {
      const end = line.indexOf("*/");
      out.push({ line: i + 1, text: end < 0 ? line : line.slice(0, end) });
      if (end >= 0) inBlock = false;
      return;
    }
    if (shell ? trimmed.startsWith("#") : trimmed.startsWith("-- ")) {
      out.push({ line: i + 1, text: line });
      return;
    }
    if (shell) return;
    const start = commentStart(line);
    if (!start) return;
    const end = start.block ? line.indexOf("*/", start.at + 2) : -1;
    out.push({ line: i + 1, text: line.slice(start.at, end < 0 ? undefined : end) });
    if (start.block && end < 0) inBlock = true;
  });
  return out;
}

/** What is wrong with the citations in one file's comments, one line per problem. */
export function citationProblems(path: string, text: string, exists: (docsPath: string) => boolean): string[] {
  const problems: string[] = [];
  for (const c of commentLines(text, path.endsWith(".sh"))) {
    for (const o of OUTSIDE)
      if (o.pattern.test(c.text)) problems.push(`${path}:${c.line} cites ${o.name}: ${c.text.trim()}`);
    for (const m of c.text.matchAll(DOCS_PATH))
      if (!exists(m[0])) problems.push(`${path}:${c.line} cites ${m[0]}, which does not exist`);
  }
  return problems;
}

test("the check finds every kind of outside citation in a comment, a docs/ page that is missing, and skips strings", () => {
  const sample = [
    "// one (issue 23)",
    "const s = 'it\\'s issue 5 in a string'; // and DESIGN §8a after code",
    "/** ADR-0003 in JSDoc */",
    "/*",
    " * seed 002 and STYLE §15 and anchor §4.8, break 9",
    " */",
    "const sql = `",
    "-- a SQL comment naming issue 16",
    "`;",
    "// see docs/decisions/authority.md and docs/nowhere.md",
    'const url = "https://example.com/issue 7";',
    "// reference/pi-e2e",
  ].join("\n");
  const found = citationProblems("x.ts", sample, (p) => p === "docs/decisions/authority.md");
  assert.deepEqual(
    found.map((p) => p.replace(/ cites ([^:]*).*/, " $1")),
    [
      "x.ts:1 an issue number",
      "x.ts:2 DESIGN §",
      "x.ts:3 an ADR",
      "x.ts:5 the anchor's §",
      "x.ts:5 a seed",
      "x.ts:5 STYLE §",
      "x.ts:5 a hostile-review break",
      "x.ts:8 an issue number",
      "x.ts:10 docs/nowhere.md, which does not exist",
      "x.ts:12 the shared reference folder",
    ],
  );
  assert.deepEqual(citationProblems("x.sh", "# issue 3\necho 'issue 4'", () => true).length, 1);
});

test("every citation in a comment under src/, test/, bench/ and scripts/ resolves inside the repository", () => {
  const problems = SCANNED.flatMap((dir) =>
    sources(join(ROOT, dir)).flatMap((file) =>
      citationProblems(relative(ROOT, file), readFileSync(file, "utf8"), (p) => existsSync(join(ROOT, p))),
    ),
  );
  assert.deepEqual(problems, [], "cite a page under docs/ (docs/decisions/README.md lists the design decisions)");
});
