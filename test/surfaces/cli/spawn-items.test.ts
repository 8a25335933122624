// Items given with `--item` on spawn reach a real pi worker in its task.md, with its first prompt: never as a turn of
// their own, so a plan question stays open until you answer it and a steps file is served in its own order.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { cliGround } from "../../support/cli-workers.js";
import { tempDir } from "../../support/temp.js";

const STEPS = [
  {
    text: "My plan: look at t1 and report it.",
    toolCall: { name: "docket_wait", arguments: { question: "Plan: report t1. Go ahead?", options: ["yes", "no"] } },
  },
  {
    text: "t1 is handled.",
    toolCall: {
      name: "docket_done",
      arguments: {
        outcome: "completed",
        summary: "t1 handled",
        items: [
          {
            item: "t1",
            outcome: "done",
            body: "looked at it",
            evidence: [{ kind: "note", text: "read the file" }],
          },
        ],
      },
    },
  },
];

test("spawn --item: the item is in task.md, the plan question waits for its answer, the steps run in order", {
  timeout: 180_000,
}, (t) => {
  const { root, home, run } = cliGround(t, {
    repoDir: "play",
    homeDir: "home",
    files: { "hello.txt": "hello\n" },
  });
  writeFileSync(join(root, "steps.json"), JSON.stringify(STEPS));
  const log = join(root, "model-calls.jsonl");
  jsonOf(run("item", "add", "Check the greeting", "--json"));
  const spawned = jsonOf(
    run(
      "spawn",
      "--scripted",
      "../steps.json",
      "--item",
      "t1",
      "--env",
      `DOCKET_SCRIPTED_MODEL_LOG=${log}`,
      "--wait",
      "--json",
      "Handle the item",
    ),
  );
  assert.equal(spawned.waited, "needs_input");
  const task = readFileSync(join(home, "fleet", "w1", "task.md"), "utf8");
  assert.match(
    task,
    /## Your items\n\nDocket dispatch dp1: 1 item is now yours\.\n- t1 \(todo, revision 1\): Check the greeting/,
  );
  const answered = jsonOf(run("answer", "w1", "1", "--wait", "--json"));
  assert.equal(answered.waited, "ready");
  const calls = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { step: number; lastUser: string });
  assert.deepEqual(
    calls.slice(0, 2).map((c) => c.step),
    [0, 1],
  );
  assert.match(calls[0]!.lastUser, /^You are Docket worker w1\. Your task is in /, "step 0 answers the first prompt");
  assert.doesNotMatch(calls[1]!.lastUser, /Docket dispatch/, "step 1 answers your answer, not the work envelope");
  for (const c of calls)
    assert.doesNotMatch(c.lastUser, /Docket dispatch dp1/, `no model call was made for the items: ${c.lastUser}`);
  const item = jsonOf(run("item", "show", "t1", "--json"));
  assert.deepEqual(
    item.reports.map((r: { outcome: string }) => r.outcome),
    ["done"],
  );
  assert.equal(jsonOf(run("report", "w1", "--json")).summary, "t1 handled");
});

test("spawn --help shows the shapes of a steps file's evidence and items", (t) => {
  const r = docket({ env: cliEnv({ HOME: tempDir(t), DOCKET_HOME: tempDir(t) }), cwd: tempDir(t) }, "spawn", "--help");
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /"evidence": \[\{"kind": "commit \| test \| artifact \| runtime \| note", "text": "[^"]+"\}\] +at most 100 entries/,
  );
  assert.match(r.stdout, /"items": \[\{"item": "t1", "outcome": "done \| released \| abandoned \| blocked", "body": /);
  assert.match(r.stdout, /"forHuman": \[/);
});
