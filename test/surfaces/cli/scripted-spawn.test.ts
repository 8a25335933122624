// `docket spawn --scripted <steps.json> --wait` runs a real pi worker on the shipped scripted model with no key,
// no DOCKET_PI_ARGS and no --env: the whole first session (spawn → answer its plan → verdict → approve → promote).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AS_CONFIGURED, cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { cliGround } from "../../support/cli-workers.js";

const STEPS = [
  // The default kind is plan-gated: the worker proposes its plan, and its edits are refused until you answer.
  {
    text: "My plan: write hello, world into hello.txt.",
    toolCall: {
      name: "docket_wait",
      arguments: { question: "Plan: write hello, world into hello.txt. Go ahead?", options: ["yes", "no"] },
    },
  },
  {
    text: "Editing hello.txt.",
    toolCall: { name: "write", arguments: { path: "hello.txt", content: "hello, world\n" } },
  },
  {
    text: "hello.txt now greets the world.",
    toolCall: { name: "docket_done", arguments: { outcome: "completed", summary: "hello.txt greets the world" } },
  },
];

function setup(t: { after(fn: () => void): void }, sandbox: Record<string, string> = {}) {
  return cliGround(t, { repoDir: "play", homeDir: "home", files: { "hello.txt": "hello\n" }, env: sandbox });
}

test("a scripted worker runs from a steps file alone and its frozen patch is promoted", { timeout: 180_000 }, (t) => {
  // As the README's first session runs it: contained where bubblewrap works (the default), so its own git dir is made.
  const { root, repo, env } = setup(t, AS_CONFIGURED);
  writeFileSync(join(root, "steps.json"), JSON.stringify(STEPS));
  const spawned = jsonOf(
    docket(
      { env, cwd: repo },
      "spawn",
      "--scripted",
      "../steps.json",
      "--wait",
      "--json",
      "Make hello.txt greet the world",
    ),
  );
  assert.equal(spawned.worker, "w1");
  assert.equal(spawned.waited, "needs_input");
  assert.equal(spawned.execution.model, "docket-demo/scripted");
  // No --yes was typed: what waived the confirmation is named as itself.
  assert.ok(
    spawned.summary.includes(
      "Confirmation not asked (--scripted: its model spends nothing): model docket-demo/scripted differs from your pi's (none)",
    ),
    spawned.summary.join("\n"),
  );
  const answered = jsonOf(docket({ env, cwd: repo }, "answer", "w1", "1", "--wait", "--json"));
  assert.equal(answered.waited, "ready", "the answer discharged the plan gate; the worker wrote and published");
  const pane = jsonOf(docket({ env, cwd: repo }, "peek", "w1", "--json"));
  assert.match(JSON.stringify(pane), /hello\.txt now greets the world/);
  assert.doesNotMatch(
    JSON.stringify(pane),
    /extended-keys/,
    "Docket's own tmux server has the extended keys pi asks for",
  );
  const card = jsonOf(docket({ env, cwd: repo }, "verdict", "w1", "--json"));
  assert.equal(card.deliverable.ref, "worker-deliverable:w1:1");
  jsonOf(docket({ env, cwd: repo }, "approve", "w1", "--json"));
  jsonOf(docket({ env, cwd: repo }, "promote", "w1", "--json"));
  assert.equal(readFileSync(join(repo, "hello.txt"), "utf8"), "hello, world\n");
  // The promoted worker is settled, so ls hides it, but its process still runs: ls does not say there is none.
  const ls = docket({ env, cwd: repo }, "ls");
  assert.equal(
    ls.stdout.trim(),
    "no unsettled workers in this project; `docket ls --all` lists 1 more (settled, or in other projects)",
  );
  // Right after normal use the doctor finds nothing to warn about in Docket's own files (the worktree and a contained
  // worker's git dir are git's).
  const doctor = docket({ env, cwd: repo }, "doctor", "--json");
  const modes = (doctor.json.findings as { check: string; severity: string; message: string }[]).filter(
    (f) => f.check === "modes",
  );
  assert.deepEqual(
    modes.map((f) => f.severity),
    ["ok"],
    JSON.stringify(modes),
  );
  const sandbox = (doctor.json.findings as { check: string; severity: string }[]).find((f) => f.check === "sandbox");
  if (sandbox?.severity === "ok")
    assert.equal(
      jsonOf(docket({ env, cwd: repo }, "show", "w1", "--json")).contained,
      true,
      "where bubblewrap works the first session is contained",
    );
});

test("a bad steps file is refused before anything starts, naming the step", { timeout: 60_000 }, (t) => {
  const { root, repo, env } = setup(t);
  const cases: [string, string, RegExp][] = [
    ["not-json.json", "[{", /is not valid JSON/],
    ["empty.json", "[]", /non-empty JSON array/],
    [
      "bad-call.json",
      JSON.stringify([{ text: "x" }, { toolCall: { name: "write" } }]),
      /step 2 has a tool call without/,
    ],
    ["unknown-key.json", JSON.stringify([{ txt: "x" }]), /step 1 has an unknown key "txt"/],
  ];
  for (const [name, text, message] of cases) {
    writeFileSync(join(root, name), text);
    const r = docket({ env, cwd: repo }, "spawn", "--scripted", join(root, name), "--json", "task");
    const error = jsonOf(r, 1).error;
    assert.equal(error.code, "bad-steps-file", name);
    assert.match(error.message, message);
  }
  assert.equal(
    jsonOf(docket({ env, cwd: repo }, "spawn", "--scripted", join(root, "missing.json"), "--json", "task"), 1).error
      .code,
    "input-unreadable",
  );
  const usage = jsonOf(
    docket({ env, cwd: repo }, "spawn", "--scripted", join(root, "empty.json"), "--agent", "codex", "--json", "task"),
    2,
  );
  assert.match(usage.error.message, /--scripted drives a pi worker/);
  assert.deepEqual(
    jsonOf(docket({ env, cwd: repo }, "ls", "--all", "--json")).workers,
    [],
    "no worker row was written",
  );
});

test("spawn --help shows the step format and names no file that does not ship", () => {
  const r = docket({ env: cliEnv({ HOME: "/nonexistent" }), cwd: "/" }, "spawn", "--help");
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /--scripted <steps\.json>/);
  assert.match(r.stdout, /"toolCall": \{"name": "write"/);
  assert.match(r.stdout, /docket_done's arguments: outcome/);
  assert.doesNotMatch(r.stdout, /faux-provider/);
});
