// Input is taken exactly as typed: a ref with whitespace anywhere is a named refusal (never trimmed into another ref),
// `log --since` refuses an empty or padded window, and with `--json` anywhere on the line (after `--` too) an error is
// one JSON object. Cases are generated: each ref in each verb, with each kind of whitespace.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { appWith, decisionCount, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { tempDir } from "../../support/temp.js";

/** Each way whitespace gets into a pasted ref. */
const PADS: ((ref: string) => string)[] = [
  (r) => `${r}\n`,
  (r) => `${r} `,
  (r) => ` ${r}`,
  (r) => `${r}\t`,
  (r) => `${r}\r\n`,
  (r) => `${r.slice(0, 1)} ${r.slice(1)}`,
  (r) => `${r}\u00a0`,
];

/** Each verb that takes a ref, `@` where the ref goes, and a ref that exists (so trimming would find it). */
const CASES: [string[], string][] = [
  [["approve", "@"], "w1"],
  [["approve", "@"], "worker-deliverable:w1:1"],
  [["reject", "@"], "w1:v1"],
  [["verdict", "@"], "w1"],
  [["report", "@"], "worker-deliverable:w1:1"],
  [["diff", "@"], "w1"],
  [["show", "@"], "w1"],
  [["peek", "@"], "w1"],
  [["promote", "@", "--yes"], "w1"],
  [["use", "@", "--parent"], "w1"],
  [["delete", "@", "--yes"], "w1"],
  [["tell", "@", "hello"], "w1"],
  [["revise", "@", "again"], "w1"],
  [["dispatch", "@", "t1"], "w1"],
  [["dispatch", "w1", "@"], "t1"],
  [["item", "show", "@"], "t1"],
  [["item", "edit", "@", "new text"], "t1"],
  [["item", "reply", "@", "a reply"], "t1"],
  [["obligation", "park", "@", "--until", "2030-01-01T00:00:00Z"], "o1"],
  [["chips", "drop", "@"], "c1"],
  [["verdict", "@"], "combined:w1+w2:1"],
];

test("a ref with whitespace anywhere is refused by name in every verb, and nothing changes", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const env = cliEnv({ DOCKET_HOME: g.home, HOME: tempDir(t), TMPDIR: tempDir(t) });
  const run = (...args: string[]) => docket({ env, cwd: g.project }, ...args);
  jsonOf(run("item", "add", "a todo", "--json"));
  jsonOf(run("dispatch", w.worker, "t1", "--json"));
  const before = { decisions: decisionCount(g.ctx), items: jsonOf(run("item", "show", "t1", "--json")) };
  for (const [verb, ref] of CASES) {
    for (const pad of PADS) {
      const typed = pad(ref);
      const args = verb.map((a) => (a === "@" ? typed : a));
      const r = run(...args, "--json");
      const label = JSON.stringify(args);
      assert.equal(r.code, 1, `${label}: ${r.stdout}${r.stderr}`);
      assert.equal(r.json?.error?.code, "ref-has-whitespace", `${label}: ${r.stdout}`);
      assert.ok(r.json.error.message.startsWith(`${JSON.stringify(typed)} has whitespace in it`), r.json.error.message);
    }
  }
  assert.equal(decisionCount(g.ctx), before.decisions, "no decision was recorded");
  assert.deepEqual(jsonOf(run("item", "show", "t1", "--json")), before.items, "the item is as it was");
  assert.equal(jsonOf(run("show", "w1", "--json")).worker, "w1", "the worker is still there");
});

test("log --since refuses an empty or padded window instead of reading it as the default", (t) => {
  const env = cliEnv({ DOCKET_HOME: join(tempDir(t), "home"), HOME: tempDir(t) });
  for (const since of ["", " ", "\n", " 7d", "7d ", "7 d", "0d"]) {
    const r = jsonOf(docket({ env, cwd: tempDir(t) }, "log", "--since", since, "--json"), 2);
    assert.equal(r.error.code, "bad-duration", JSON.stringify(since));
  }
  for (const since of ["", " 7d"]) {
    const r = jsonOf(docket({ env, cwd: tempDir(t) }, "spend", "--since", since, "--json"), 1);
    assert.equal(r.error.code, "bad-since", JSON.stringify(since));
  }
  assert.equal(jsonOf(docket({ env, cwd: tempDir(t) }, "log", "--since", "7d", "--json")).decisions.length, 0);
});

test("with --json anywhere on the line, after -- too, every error is one JSON object", (t) => {
  const env = cliEnv({ DOCKET_HOME: join(tempDir(t), "home"), HOME: tempDir(t) });
  const lines: string[][] = [
    ["item", "show", "--", "--all", "--json"],
    ["item", "show", "--", "--json"],
    ["--json", "item", "show", "--", "t9"],
    ["show", "--", "w1", "--json"],
    ["approve", "--", "--json"],
    ["frobnicate", "--", "--json"],
    ["item", "add", "--nope", "--", "--json"],
  ];
  for (const line of lines) {
    const r = docket({ env, cwd: tempDir(t) }, ...line);
    assert.notEqual(r.code, 0, line.join(" "));
    assert.equal(r.stderr, "", `${line.join(" ")}: nothing but the JSON`);
    const out = JSON.parse(r.stdout) as { error?: { code: string; message: string } };
    assert.equal(typeof out.error?.code, "string", `${line.join(" ")}: ${r.stdout}`);
  }
});
