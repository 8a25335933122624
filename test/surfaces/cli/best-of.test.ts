// Claim: `docket spawn --best-of 4` starts three real pi workers on scripted models making three different edits and a
// real Claude Code worker against a scripted Messages API, as one group; `compare` lists all four with their stats,
// `choose` records one approval and three not-chosen decisions and stops the others, `promote` lands the chosen bytes,
// and `ls` and `log` show the group and the choice.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentGround } from "../../support/agent-worker.js";
import { claudeApiEnv, listsDocket } from "../../support/claude-worker.js";
import { startFakeAnthropic } from "../../support/fake-anthropic.js";
import { onceListed } from "../../support/fake-model-server.js";
import { tempDir } from "../../support/temp.js";

const MODEL = "claude-sonnet-4-5";

/** A pi candidate's script: one write, then docket_done with the test it says it ran. */
function piSteps(path: string, content: string, test: string): unknown[] {
  return [
    { text: `Writing ${path}.`, toolCall: { name: "write", arguments: { path, content } } },
    {
      text: `${path} is written.`,
      toolCall: {
        name: "docket_done",
        arguments: {
          outcome: "completed",
          summary: `wrote ${path}`,
          evidence: [{ kind: "test", text: test }],
        },
      },
    },
  ];
}

test("best of 4 (three scripted pi, one Claude Code): compare, choose, promote, ls and log", {
  timeout: 400_000,
}, async (t) => {
  const g = agentGround(t);
  g.configure({});
  const dir = tempDir(t, "docket-best-of-steps-");
  const steps = [
    piSteps("src/app.txt", "one\nTWO\nthree\n", "grep TWO src/app.txt: found"),
    piSteps("notes.md", "# notes\nby the second candidate\n", "test -f notes.md: pass"),
    piSteps("src/app.txt", "one\ntwo\nthree\nfour\n", "wc -l src/app.txt: 4"),
  ].map((s, i) => {
    const path = join(dir, `s${i + 1}.json`);
    writeFileSync(path, JSON.stringify(s));
    return path;
  });
  const claudeFile = join(g.workspace("w4"), "claude.txt");
  const model = await startFakeAnthropic([
    {
      text: "Writing claude.txt.",
      tools: [{ name: "Write", id: "toolu_w", input: { file_path: claudeFile, content: "by claude\n" } }],
    },
    onceListed(
      listsDocket,
      {
        text: "Wrote claude.txt.",
        tools: [
          {
            name: "mcp__docket__docket_done",
            id: "toolu_done",
            input: {
              body: "Wrote claude.txt.",
              outcome: "completed",
              summary: "wrote claude.txt",
              evidence: [{ kind: "test", text: "cat claude.txt: by claude" }],
            },
          },
        ],
      },
      { tools: [{ name: "Glob", input: { pattern: "*.txt" } }] },
    ),
    { text: "Published v1." },
  ]);
  t.after(() => model.close());
  g.watch(model);

  const spawned = g.run(
    "spawn",
    "--best-of",
    "4",
    "--agent",
    "pi,pi,pi,claude",
    "--scripted",
    `${steps.join(",")},-`,
    "--model",
    `-,-,-,${MODEL}`,
    "--as",
    "writer",
    ...claudeApiEnv(model.url),
    "--json",
    "improve",
    "the",
    "project",
  );
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  assert.equal(spawned.json.group, "b1");
  assert.deepEqual(
    spawned.json.candidates.map((c: { worker: string; execution: { model: string } }) => [c.worker, c.execution.model]),
    [
      ["w1", "docket-demo/scripted"],
      ["w2", "docket-demo/scripted"],
      ["w3", "docket-demo/scripted"],
      ["w4", MODEL],
    ],
  );
  const state = (w: string) => g.row("SELECT state FROM workers WHERE id = ?", w).state;
  await g.until(
    "every candidate ready with v1",
    () => ["w1", "w2", "w3", "w4"].every((w) => state(w) === "ready"),
    240_000,
  );

  const compared = g.run("compare", "b1", "--json");
  assert.equal(compared.code, 0, compared.stderr);
  const c = compared.json;
  assert.deepEqual(
    c.candidates.map((k: any) => [
      k.worker,
      k.agent,
      k.ref,
      k.files.map((f: any) => f.path),
      k.additions,
      k.deletions,
      k.tests,
    ]),
    [
      ["w1", "pi", "worker-deliverable:w1:1", ["src/app.txt"], 1, 1, ["grep TWO src/app.txt: found"]],
      ["w2", "pi", "worker-deliverable:w2:1", ["notes.md"], 2, 0, ["test -f notes.md: pass"]],
      ["w3", "pi", "worker-deliverable:w3:1", ["src/app.txt"], 1, 0, ["wc -l src/app.txt: 4"]],
      ["w4", "claude", "worker-deliverable:w4:1", ["claude.txt"], 1, 0, ["cat claude.txt: by claude"]],
    ],
  );
  assert.equal(c.candidates[3].model, MODEL);
  assert.deepEqual(
    c.candidates.map((k: any) => k.onlyHere),
    [[], ["notes.md"], [], ["claude.txt"]],
  );
  assert.deepEqual(c.overlaps, [{ a: "w1", b: "w3", files: ["src/app.txt"] }]);
  const text = g.run("compare", "b1");
  assert.match(text.stdout, /^b1 · best of 4 · improve the project$/m);
  assert.match(text.stdout, /^w4 · claude · claude-sonnet-4-5 · ready · worker-deliverable:w4:1$/m);
  assert.match(text.stdout, /^overlap: w1\+w3 1 file \(src\/app\.txt\)$/m);

  const windowsBefore = g.server.tmux("list-windows", "-a", "-F", "#{window_name}").split("\n").filter(Boolean).sort();
  assert.deepEqual(windowsBefore, ["w1", "w2", "w3", "w4"]);
  const chosen = g.run("choose", "worker-deliverable:w2:1", "--reason", "notes beat edits", "--json");
  assert.equal(chosen.code, 0, chosen.stderr + chosen.stdout);
  assert.equal(chosen.json.chosen.verb, "approve");
  assert.deepEqual(
    chosen.json.notChosen.map((n: any) => n.worker),
    ["w1", "w3", "w4"],
  );
  assert.deepEqual(chosen.json.stopped, ["w1", "w3", "w4"]);
  assert.deepEqual(
    g.server.tmux("list-windows", "-a", "-F", "#{window_name}").split("\n").filter(Boolean),
    ["w2"],
    "the other candidates' windows are closed",
  );

  const promoted = g.run("promote", "worker-deliverable:w2:1", "--yes", "--json");
  assert.equal(promoted.code, 0, promoted.stderr + promoted.stdout);
  assert.equal(readFileSync(join(g.repo, "notes.md"), "utf8"), "# notes\nby the second candidate\n");
  assert.equal(existsSync(join(g.repo, "claude.txt")), false, "only the chosen bytes landed");
  assert.equal(readFileSync(join(g.repo, "src/app.txt"), "utf8"), "one\ntwo\nthree\n");

  // A not-chosen version stays readable.
  const report = g.run("report", "worker-deliverable:w4:1", "--json");
  assert.equal(report.code, 0, report.stderr);

  const ls = g.run("ls", "--all");
  assert.match(ls.stdout, /^b1 · best of 4 · improve the project · chose worker-deliverable:w2:1$/m);
  assert.match(ls.stdout, /^ {2}w1 /m);
  assert.deepEqual(
    g.run("ls", "--all", "--json").json.workers.map((w: any) => w.group),
    ["b1", "b1", "b1", "b1"],
  );
  const log = g.run("log", "--json");
  assert.deepEqual(
    log.json.decisions
      .filter((d: any) => d.verb !== "promote")
      .map((d: any) => `${d.worker} ${d.verb} ${d.note}`)
      .sort(),
    [
      "w1 not-chosen b1: notes beat edits",
      "w2 approve chosen in b1",
      "w3 not-chosen b1: notes beat edits",
      "w4 not-chosen b1: notes beat edits",
    ],
  );
});
