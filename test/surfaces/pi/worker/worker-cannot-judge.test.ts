// A real pi worker (scripted model, real tmux) that tries to judge through its bash tool is refused:
// `docket approve` run from its own environment exits 1 with worker-cannot-judge and no decision is recorded.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docket } from "../../../support/docket-cli.js";
import { gitRepo } from "../../../support/git.js";
import { scriptedPi, scriptedModelFlags } from "../../../support/scripted-pi.js";
import { tempDir } from "../../../support/temp.js";
import { waitFor } from "../../../support/wait.js";

const SLOW = 120_000;

test("a pi worker whose bash tool runs `docket approve` is refused and nothing is recorded", {
  timeout: 360_000,
}, async (t) => {
  const pi = scriptedPi(t);
  const repo = gitRepo(tempDir(t, "docket-repo-"), { "a.txt": "one\n" });
  const run = (...args: string[]) => docket({ env: cliEnv(pi.vars), cwd: repo }, ...args);
  const state = (w: string) =>
    (run("ls", "--json").json?.workers ?? []).find((x: { worker: string }) => x.worker === w)?.state as
      | string
      | undefined;

  const publisher = pi.script("publisher.json", [
    {
      text: "Findings: nothing to change.",
      toolCall: {
        name: "docket_done",
        id: "done-1",
        arguments: { outcome: "findings", summary: "looked", evidence: [], recommendations: [], items: [] },
      },
    },
    { text: "published" },
  ]);
  const first = run("spawn", "--as", "scout", ...scriptedModelFlags(publisher), "--yes", "--json", "look around");
  assert.equal(first.code, 0, first.stderr + first.stdout);
  await waitFor("w1 to be ready with v1", () => state("w1") === "ready", SLOW);

  const out = join(pi.vars.DOCKET_HOME, "approve.out");
  const judge = pi.script("judge.json", [
    {
      toolCall: {
        name: "bash",
        id: "try-1",
        arguments: {
          command: `"$DOCKET_NODE" "$DOCKET_BIN" approve w1 --json > '${out}.tmp' 2>&1; echo "exit=$?" >> '${out}.tmp'; mv '${out}.tmp' '${out}'`,
        },
      },
    },
    { text: "I tried to approve it." },
  ]);
  const second = run("spawn", "--as", "scout", ...scriptedModelFlags(judge), "--yes", "--json", "review w1");
  assert.equal(second.code, 0, second.stderr + second.stdout);
  const text = await waitFor(
    "the worker's approve attempt",
    () => (existsSync(out) ? readFileSync(out, "utf8") : undefined),
    SLOW,
  );

  const [json, exit] = text.trim().split("\n");
  assert.equal(exit, "exit=1", text);
  const refusal = JSON.parse(json!);
  assert.equal(refusal.error.code, "worker-cannot-judge");
  assert.match(
    refusal.error.message,
    /^approve is the human's: this process carries a worker identity \(DOCKET_WORKER_ID, DOCKET_GENERATION, DOCKET_RUN_TOKEN\)/,
  );
  const log = run("log", "--json");
  assert.deepEqual(log.json.decisions, [], "no decision was recorded");
  assert.equal(state("w1"), "ready", "w1's version is still unjudged");

  const mine = run("approve", "w1", "--json");
  assert.equal(mine.code, 0, mine.stdout + mine.stderr);
  assert.equal(run("log", "--json").json.decisions[0].actor, "human");
});
