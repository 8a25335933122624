// What a user reads says "you", "your checkout" or "your pi session", never "the parent" (an internal word): every
// verb's help, and the refusals and notes of a promotion onto a checkout that changed since the worker began.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { HELP_HEADINGS, VERB_GROUPS } from "../../../src/surfaces/shared/verbs/registry.js";
import { cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { tempDir } from "../../support/temp.js";

/** "parent" as a user would read it in prose: the parent, parent changed, parent session, … (not `--parent`). */
const PARENT_WORD =
  /(?<![-\w])(?:the parent\b|parent(?:'s)? (?:changed|changes|session|agent|checkout|directory|lines))/i;

test("no human verb's help speaks of the parent", (t) => {
  const env = cliEnv({ HOME: tempDir(t), DOCKET_HOME: tempDir(t) });
  // `docket worker …` is the workers' own side: its words are the ones their guardrails define ("the parent agent").
  const verbs = VERB_GROUPS.flatMap((g) => g.verbs.map((v) => v.name)).filter((v) => v !== "worker");
  assert.ok(verbs.length > 30 && HELP_HEADINGS.length > 0);
  for (const help of [["--help"], ...verbs.map((v) => [v, "--help"])]) {
    const r = docket({ env, cwd: tempDir(t) }, ...help);
    assert.equal(r.code, 0, `${help.join(" ")}: ${r.stderr}`);
    assert.doesNotMatch(r.stdout, PARENT_WORD, `${help.join(" ")}:\n${r.stdout}`);
  }
});

test("a promotion onto a changed checkout speaks of your checkout, in its warning and its refusal", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "worker three" }) });
  const run = (...args: string[]) =>
    docket({ env: cliEnv({ DOCKET_HOME: g.home, HOME: tempDir(t) }), cwd: g.project }, ...args);
  jsonOf(run("approve", w.worker, "--json"));
  const cases: [Record<number, string>, string, RegExp][] = [
    [{ 30: "mine" }, "promotion-needs-confirmation", /your checkout changed src\/app\.txt \(modified\)/],
    [{ 3: "mine" }, "patch-does-not-apply", /your checkout's lines around line \d+ differ/],
  ];
  for (const [lines, code, words] of cases) {
    writeFileSync(join(g.project, "src/app.txt"), appWith(lines));
    const error = jsonOf(run("promote", w.worker, "--json"), 1).error;
    assert.equal(error.code, code);
    assert.match(error.message, words);
    assert.doesNotMatch(error.message, PARENT_WORD);
    const card = run("verdict", w.worker);
    assert.doesNotMatch(card.stdout, PARENT_WORD, card.stdout);
  }
});
