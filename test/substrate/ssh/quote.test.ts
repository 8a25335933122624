// The remote command line ssh sends is read by a shell: every hostile word comes out of a real `sh` byte for byte.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { remoteCommandLine, shellQuote } from "../../../src/substrate/ssh/quote.js";

const HOSTILE = [
  "$(touch /tmp/pwned)",
  "`id`",
  "'",
  "''",
  "a'b\"c",
  "line\nbreak",
  "tab\there",
  "; rm -rf /",
  "*",
  "~",
  "$HOME",
  "\\",
  "-n",
  "",
  "x#y",
  "é ✓",
  "'$(x)'\n'",
];

test("each word a shell reads back from the quoted line is exactly the word that was sent", () => {
  const line = `printf '%s\\0' ${remoteCommandLine(HOSTILE)}`;
  const out = execFileSync("sh", ["-c", line], { encoding: "utf8" });
  assert.deepEqual(out.split("\0").slice(0, -1), HOSTILE);
});

test("a word is one single-quoted token and a quote inside it is closed, escaped and reopened", () => {
  assert.equal(shellQuote("it's"), `'it'\\''s'`);
  assert.equal(shellQuote(""), "''");
  assert.throws(() => shellQuote("a\u0000b"), /NUL/);
  assert.throws(() => remoteCommandLine([]), /at least one word/);
});
