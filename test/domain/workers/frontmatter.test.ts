// The tiny frontmatter reader: line endings, closers, comments, quotes, blocks and lists, and its refusals.

import { test } from "node:test";
import assert from "node:assert/strict";
import { parseFrontmatter } from "../../../src/domain/workers/frontmatter.js";

const entries = (text: string) => {
  const r = parseFrontmatter(text);
  assert.ok(r.ok, r.ok ? "" : r.error);
  return Object.fromEntries(r.entries.map((e) => [e.key, e.value]));
};

test("CRLF line endings, a byte-order mark and a ... closer are accepted; the body is trimmed", () => {
  const r = parseFrontmatter("\uFEFF---\r\nname: x\r\n...\r\n\r\nBody line\r\n");
  assert.deepEqual(r, { ok: true, entries: [{ key: "name", value: "x", line: 2 }], body: "Body line" });
});

test("comments are stripped only after whitespace and outside quotes", () => {
  assert.deepEqual(entries("---\na: x # c\nb: x#y\nc: \"p # q\" # c\nd: it's # c\ne: 'it''s'\n---\n"), {
    a: "x",
    b: "x#y",
    c: "p # q",
    d: "it's",
    e: "it's",
  });
});

test("double-quoted strings take JSON escapes", () => {
  assert.deepEqual(entries('---\na: "line\\nnext \\"q\\""\n---\n'), { a: 'line\nnext "q"' });
  const bad = parseFrontmatter('---\na: "bad \\q"\n---\n');
  assert.deepEqual(bad, { ok: false, error: 'line 2: bad escape in "quoted" string "\\"bad \\\\q\\""' });
});

test("| keeps line breaks and > folds them, both dedented; a block ends at the first unindented line", () => {
  assert.deepEqual(entries("---\na: |\n  one\n\n    two\nb: >\n  folded\n  text\n\n  para\nc: after\n---\n"), {
    a: "one\n\n  two",
    b: "folded text\n\npara",
    c: "after",
  });
});

test("lists: - items (blank lines allowed, empty items dropped) and [inline, 'quoted, comma']", () => {
  assert.deepEqual(entries("---\na:\n  - one\n\n  - 'two'\n  -\nb: [x, 'y, z', \"w\"]\nc: []\nd:\n---\n"), {
    a: ["one", "two"],
    b: ["x", "y, z", "w"],
    c: [],
    d: "",
  });
});

test("a stray list item without a key, or an indented key, is refused with its line number", () => {
  assert.deepEqual(parseFrontmatter("---\na: 1\n- item\n---\n"), {
    ok: false,
    error: 'line 3: expected "key: value", got "- item"',
  });
  assert.deepEqual(parseFrontmatter("---\n  a: 1\n---\n"), {
    ok: false,
    error: 'line 2: expected "key: value", got "  a: 1"',
  });
});
