// Claim: bad --best-of input is refused with one line that names the flag, before anything is recorded or started;
// compare and choose refuse an unknown group or a ref that is not exact the same way.

import { test } from "node:test";
import assert from "node:assert/strict";
import { fixture, windows } from "../../support/cli-workers.js";

test("--best-of refuses a bad count, a list longer than N, an empty entry and flags that do not apply; nothing starts", (t) => {
  const f = fixture(t);
  const cases: [string[], RegExp][] = [
    [["--best-of", "1"], /^--best-of takes a whole number of candidates from 2 to 10; got 1/],
    [["--best-of", "2", "--model", "a/x,b/y,c/z"], /^--model lists 3 values for 2 candidates/],
    [["--best-of", "2", "--agent", "pi,,claude"], /^--agent has an empty entry at position 2/],
    [
      ["--best-of", "2", "--agent", "pi,gemini"],
      /^--agent must list agents from pi, claude, codex, command; got "gemini"/,
    ],
    [["--best-of", "2", "--item", "t1"], /^--item does not apply to --best-of/],
    [["--best-of", "2", "--host", "h", "--local"], /^--host and --local contradict each other; pick one$/],
  ];
  for (const [flags, message] of cases) {
    const r = f.run("spawn", ...flags, "--json", "do", "it");
    assert.equal(r.code, 2, `${flags.join(" ")}: ${r.stdout}${r.stderr}`);
    assert.match(r.json.error.message, message);
  }
  const ls = f.run("ls", "--all", "--json");
  assert.deepEqual(ls.json.workers, [], "no worker was recorded");
  assert.equal(windows(f), "", "no window was opened");
});

test("compare of an unknown group and choose of a bare id are refused in one line", (t) => {
  const f = fixture(t);
  const unknown = f.run("compare", "b4", "--json");
  assert.equal(unknown.code, 1);
  assert.deepEqual(unknown.json.error, {
    code: "unknown-group",
    message: "there is no group b4",
    hint: "`docket ls` lists groups beside their candidates",
  });
  const near = f.run("compare", "B4");
  assert.equal(near.code, 1);
  assert.match(near.stderr, /"B4" is not a group id/);
  const bare = f.run("choose", "w1", "--json");
  assert.equal(bare.code, 1);
  assert.equal(bare.json.error.code, "choose-needs-exact-ref");
});
