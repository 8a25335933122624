// The worker commands end to end through the real CLI: command agents in real tmux (private socket), real git
// worktrees, real SQLite. spawn, exit recording, respawn and fencing, tell, peek, delete, the fleet cap.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { assertExit, jsonOf } from "../../support/docket-cli.js";
import { writeFiles } from "../../support/git.js";
import { workerIdentityEnv } from "../../support/launch-env.js";
import { fileOnce, waitFor } from "../../support/wait.js";
import { fixture, readEnvToken, show, windows } from "../../support/cli-workers.js";

test("spawn runs a command agent in its own window with its identity, env and isolated workspace; its exit is recorded", async (t) => {
  const f = fixture(t);
  writeFiles(f.repo, { "a.txt": "one\ntwo\n", "untracked.txt": "u\n", "secret.env": "S=1\n" });
  const cmd =
    'printf "%s|%s|%s|%s|%s\\n" "$DOCKET_WORKER_ID" "$DOCKET_GENERATION" "${DOCKET_HOME:-no home}:$DOCKET_DOOR" "$EXTRA" "${DOCKET_RUN_TOKEN:+token}" > seen.txt; ls -A >> seen.txt; cat a.txt >> seen.txt; echo done-with-it; exit 3';
  const r = f.run(
    "spawn",
    "--agent",
    "command",
    "--cmd",
    cmd,
    "--env",
    "EXTRA=x y",
    "--json",
    "write",
    "what",
    "you",
    "see",
  );
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(Object.keys(r.json), ["worker", "generation", "kind", "execution", "summary"]);
  assert.deepEqual(r.json.execution, { model: null, thinking: "off", context: "fresh", workspace: "isolated" });
  assert.equal(r.json.worker, "w1");
  assert.equal(r.json.generation, 1);
  assert.equal(r.json.kind, "default");
  assert.ok(Array.isArray(r.json.summary) && r.json.summary.length > 0);

  const ws = join(f.home, "fleet", "w1", "workspace");
  const seen = await waitFor(
    "the command's output",
    fileOnce(join(ws, "seen.txt"), (text) => /one\ntwo\n/.test(text)),
  ); // its last step
  // The worker is given its door, never the home (docs/door.md).
  assert.match(
    seen,
    new RegExp(
      `^w1\\|1\\|no home:${join(f.home, "door", "w1-1.sock").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\|x y\\|token\\n`,
    ),
  );
  assert.match(seen, /untracked\.txt/);
  assert.doesNotMatch(seen, /secret\.env/, "ignored files stay out of the baseline");
  assert.match(seen, /one\ntwo\n/, "uncommitted changes are in the baseline");
  assert.ok(existsSync(join(f.home, "fleet", "w1", "task.md")));

  const exited = await waitFor("the exit to be recorded", () => {
    const panes = f.server.tmux("list-panes", "-a", "-F", "#{window_name} #{pane_dead}");
    return /^w1 1$/m.test(panes) ? panes : undefined;
  });
  assert.match(exited, /^w1 1$/m, "remain-on-exit keeps the dead pane");
  const detail = show(f, "w1");
  assert.equal(detail.state, "failed");
  assert.equal(detail.lastError, "worker process exited before reporting (exit 3)");
  assert.deepEqual(
    detail.launches.map((l: any) => [l.generation, l.exitCode]),
    [[1, 3]],
  );
  assert.equal(detail.liveness, "gone");

  const tail = readFileSync(join(f.home, "fleet", "w1", "pane-tail.txt"), "utf8");
  assert.match(tail, /done-with-it/, "the dead pane's tail was harvested");
  assert.doesNotMatch(windows(f), /w1/, "and its window killed");

  const ls = f.run("ls", "--json");
  assertExit(ls);
  assert.deepEqual(Object.keys(ls.json.workers[0]), [
    "worker",
    "kind",
    "task",
    "state",
    "reason", // a failed worker says why
    "liveness",
    "generation",
    "questions",
    "deliverable",
    "contained",
    "spend",
    "age",
    "baseMoved",
    "group",
  ]);
  const { age, ...row } = ls.json.workers[0];
  assert.match(age, /^[0-9]+[smhd]$/);
  assert.equal(row.contained, false, "tests pin DOCKET_SANDBOX=off (docket-cli.ts UNCONTAINED)");
  assert.deepEqual(row, {
    worker: "w1",
    kind: "default",
    task: "write what you see",
    state: "failed",
    reason: "worker process exited before reporting (exit 3)",
    liveness: "gone",
    generation: 1,
    questions: 0,
    deliverable: null,
    contained: false,
    spend: null,
    baseMoved: null,
    group: null,
  });
});

test("respawn starts the stored command at the next generation, moves its bindings, and fences the old process", async (t) => {
  const f = fixture(t);
  assertExit(f.run("item", "add", "fix", "it"));
  const cmd = 'echo "$DOCKET_RUN_TOKEN" > ../token.txt; echo "generation $DOCKET_GENERATION up"; sleep 60';
  const spawned = f.run("spawn", "--agent", "command", "--cmd", cmd, "--item", "t1", "--json", "hold", "t1");
  assert.equal(spawned.code, 0, spawned.stderr);
  const token1 = await waitFor("generation 1's token", () =>
    existsSync(join(f.home, "fleet/w1/token.txt")) ? readEnvToken(f, "w1") : undefined,
  );
  const g1 = { worker: "w1", generation: 1, runToken: token1 };
  assertExit(f.as(g1, "worker", "heartbeat", "--json"));

  const r = f.run("respawn", "w1", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json, { worker: "w1", generation: 2 });
  const token2 = await waitFor("generation 2's token", () => {
    const tok = existsSync(join(f.home, "fleet/w1/token.txt")) ? readEnvToken(f, "w1") : "";
    return tok && tok !== token1 ? tok : undefined;
  });
  await waitFor("generation 2 in the pane", () => f.run("peek", "w1").stdout.includes("generation 2 up"));

  const refused = f.as(g1, "worker", "heartbeat", "--json");
  assertExit(refused, 1);
  assert.equal(refused.json.error.code, "generation-replaced");
  assert.match(refused.json.error.message, /w1 generation 1 was replaced by generation 2; this process was replaced/);

  const before = show(f, "w1");
  const staleExit = f.as(g1, "worker", "exited", "--code", "0", "--json");
  assertExit(staleExit);
  assert.equal(staleExit.json.settled, false);
  const after = show(f, "w1");
  assert.equal(after.persistedState, before.persistedState, "a stale generation's exit changes nothing");
  assert.equal(after.exitCode, null);

  const beat = f.as({ worker: "w1", generation: 2, runToken: token2 }, "worker", "heartbeat", "--json");
  assert.equal(beat.code, 0, beat.stdout);
  assert.equal(beat.json.state, "active");
  const item = f.run("item", "show", "t1", "--json");
  assert.deepEqual(
    jsonOf(item).bindings.map((b: any) => [b.worker, b.generation, b.state]),
    [["w1", 2, "active"]],
  );
  assert.deepEqual(
    show(f, "w1").launches.map((l: any) => l.generation),
    [1, 2],
  );
});

test("tell keeps multi-line text as one message and pastes it into a command agent's pane, which delivers it", async (t) => {
  const f = fixture(t);
  assertExit(f.run("spawn", "--agent", "command", "--cmd", "cat", "echo", "back"));
  await waitFor("the window", () =>
    f.server.tmux("list-panes", "-a", "-F", "#{window_name} #{pane_dead}").includes("w1 0"),
  );
  const r = f.run("tell", "w1", "first line\r\nsecond line  ", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json, { message: "m1", delivery: "delivered" });
  const human = f.run("tell", "w1", "plain");
  assert.match(human.stdout, /m2 delivered to w1\n.*pasted into its pane \(best-effort/);
  assert.deepEqual(show(f, "w1").messages, [
    { id: "m1", delivery: "delivered", kind: "tell", what: 'tell: "first line"' },
    { id: "m2", delivery: "delivered", kind: "tell", what: 'tell: "plain"' },
  ]);
  const seen = await waitFor("the paste", () => {
    const p = f.run("peek", "w1", "--lines", "50", "--json");
    return p.json?.text?.includes("second line") && p.json.text.includes("plain") ? p.json : undefined;
  });
  assert.equal(seen.source, "pane");
  assert.match(seen.text, /first line\nsecond line/);
});

test("an answer to a command agent's question is pasted into its pane and counts as delivered", async (t) => {
  const f = fixture(t);
  assert.equal(f.run("spawn", "--agent", "command", "--cmd", "cat", "echo", "back").code, 0);
  await waitFor("the window", () => f.server.tmux("list-panes", "-a", "-F", "#{window_name}").includes("w1"));
  const id = workerIdentityEnv(f.home, "w1");
  const asked = f.as(
    { worker: "w1", generation: Number(id.DOCKET_GENERATION), runToken: id.DOCKET_RUN_TOKEN! },
    "worker",
    "wait",
    "--question",
    "which one?",
  );
  assert.equal(asked.code, 0, asked.stderr);
  const a = f.run("answer", "w1", "ANSWER-MARKER the left one");
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /also pasted into w1's pane \(best-effort\)/);
  assert.deepEqual(show(f, "w1").messages, [
    { id: "m1", delivery: "delivered", kind: "answer", what: 'answer q1: "ANSWER-MARKER the left one"' },
  ]);
  await waitFor("the paste", () =>
    f.run("peek", "w1", "--json").json?.text?.includes("ANSWER-MARKER") ? true : undefined,
  );
});

test("tell refuses an empty message and a question the worker never asked, and queues nothing", async (t) => {
  const f = fixture(t);
  assertExit(f.run("spawn", "--agent", "command", "--as", "scout", "--cmd", "sleep 60", "look"));
  const empty = f.run("tell", "w1", "  \n ", "--json");
  assertExit(empty, 1);
  assert.equal(empty.json.error.code, "empty-message");
  const q = f.run("tell", "w1", "--q", "q9", "yes", "--json");
  assertExit(q, 1);
  assert.equal(q.json.error.code, "question-not-found");
  assert.equal(q.json.error.message, "w1 has no question q9");
  assert.deepEqual(show(f, "w1").messages, []);
  const ghost = f.run("tell", "w7", "hi", "--json");
  assert.equal(jsonOf(ghost, 1).error.code, "worker-not-found");
});

test("a read-only kind shares the parent directory and peek bounds its lines", async (t) => {
  const f = fixture(t);
  const r = f.run("spawn", "--agent", "command", "--as", "scout", "--cmd", "pwd; sleep 60", "--json", "look");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.execution.workspace, "shared");
  const out = await waitFor("pwd", () => {
    const p = f.run("peek", "w1", "--lines", "5");
    return p.stdout.includes(f.repo) ? p.stdout : undefined;
  });
  assert.ok(out.split("\n").filter(Boolean).length <= 5);
  for (const bad of ["0", "2001", "x"]) {
    const p = f.run("peek", "w1", "--lines", bad, "--json");
    assert.equal(p.code, 2, `--lines ${bad} is a usage error`);
  }
});

test("delete needs --yes off a terminal, refuses never-promoted changes without --force, and touches no other worker", async (t) => {
  const f = fixture(t);
  assertExit(f.run("spawn", "--agent", "command", "--cmd", "echo change > new.txt; sleep 60", "change", "things"));
  assertExit(f.run("spawn", "--agent", "command", "--cmd", "sleep 60", "bystander"));
  const ws = join(f.home, "fleet", "w1", "workspace");
  await waitFor("the change", () => existsSync(join(ws, "new.txt")));

  const noYes = f.run("delete", "w1", "--json");
  assertExit(noYes, 1); // needs confirmation: exit 1, as for promote, discard and deliverable delete
  assert.equal(noYes.json.error.code, "confirm-required");
  const refused = f.run("delete", "w1", "--yes", "--json");
  assertExit(refused, 1);
  assert.equal(refused.json.error.code, "unpromoted-changes");
  assert.equal(refused.json.error.message, "w1's workspace has changes that were never promoted; nothing was deleted");
  assert.ok(existsSync(join(ws, "new.txt")));
  assert.equal(show(f, "w1").liveness, "live");

  const forced = f.run("delete", "w1", "--yes", "--force", "--json");
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(forced.json.deleted, true);
  assert.equal(existsSync(ws), false);
  assert.doesNotMatch(windows(f), /w1/);
  assert.match(windows(f), /w2/);
  assert.deepEqual(
    jsonOf(f.run("ls", "--all", "--json")).workers.map((w: any) => w.worker),
    ["w2"],
  );
  assert.equal(show(f, "w2").liveness, "live");
  assert.equal(jsonOf(f.run("show", "w1", "--json"), 1).error.code, "worker-not-found");
});

test("the fleet cap refuses a spawn once maxActive workers are live, and counts only live ones", async (t) => {
  const f = fixture(t, { maxActive: 1 });
  assertExit(f.run("spawn", "--agent", "command", "--cmd", "sleep 60", "one"));
  const r = f.run("spawn", "--agent", "command", "--cmd", "sleep 60", "--json", "two");
  assertExit(r, 1);
  assert.equal(r.json.error.code, "fleet-cap");
  assert.equal(r.json.error.message, "fleet cap reached: 1 live worker (maxActive 1: w1); nothing was started");
  assert.deepEqual(
    jsonOf(f.run("ls", "--all", "--json")).workers.map((w: any) => w.worker),
    ["w1"],
  );
  f.server.tmux("kill-window", "-t", "w1"); // the process is gone: it no longer counts
  const again = f.run("spawn", "--agent", "command", "--cmd", "sleep 60", "--json", "three");
  assert.equal(again.code, 0, again.stdout);
  assert.equal(again.json.worker, "w2", "a refused spawn used no worker number");
});

test("a worker whose version was judged holds no place under the fleet cap, though its pane idles on; the refusal names who holds the places", async (t) => {
  const f = fixture(t, { maxActive: 1 });
  const finish =
    'echo done > out.txt && echo "the body" | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary finished; exec sleep 600';
  assertExit(f.run("spawn", "--agent", "command", "--cmd", finish, "first"));
  await waitFor("w1 ready with v1", () => show(f, "w1").deliverable !== null && show(f, "w1"), 60_000, 200);
  const full = f.run("spawn", "--agent", "command", "--cmd", "sleep 60", "--json", "second");
  assert.equal(full.json.error.message, "fleet cap reached: 1 live worker (maxActive 1: w1); nothing was started");
  assertExit(f.run("reject", "w1", "--note", "not this"));
  assert.deepEqual(jsonOf(f.run("ls", "--json")).workers, [], "ls hides the judged worker");
  assert.match(windows(f), /w1/, "its pane idles on");
  const again = f.run("spawn", "--agent", "command", "--cmd", "sleep 60", "--json", "third");
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.equal(again.json.worker, "w2");
});

test("spawn --item refuses an item that is already bound and leaves no worker behind", async (t) => {
  const f = fixture(t);
  assertExit(f.run("item", "add", "shared", "task"));
  assertExit(f.run("spawn", "--agent", "command", "--cmd", "sleep 60", "--item", "t1", "first"));
  const r = f.run("spawn", "--agent", "command", "--cmd", "sleep 60", "--item", "t1", "--json", "second");
  assertExit(r, 1);
  assert.equal(r.json.error.code, "item-already-bound");
  assert.deepEqual(
    jsonOf(f.run("ls", "--all", "--json")).workers.map((w: any) => w.worker),
    ["w1"],
  );
  assert.doesNotMatch(windows(f), /w2/);
  assert.equal(existsSync(join(f.home, "fleet", "w2")), false);
});

test("spawn usage errors: --agent command without --cmd, an unknown agent, --seed with --fresh", (t) => {
  const f = fixture(t);
  assertExit(f.run("spawn", "--agent", "command", "x", "--json"), 2);
  assertExit(f.run("spawn", "--agent", "gemini", "x", "--json"), 2);
  assertExit(f.run("spawn", "--seed", "s.jsonl", "--fresh", "x", "--json"), 2);
  assertExit(f.run("spawn", "--agent", "command", "--cmd", "true", "--env", "1BAD=x", "x", "--json"), 2);
  assert.deepEqual(jsonOf(f.run("ls", "--all", "--json")).workers, []);
});

test("attach outside tmux prints the exact command for the worker's window on the private server", async (t) => {
  const f = fixture(t);
  assertExit(f.run("spawn", "--agent", "command", "--cmd", "sleep 60", "x"));
  const r = f.run("attach", "w1", "--json");
  assertExit(r);
  assert.equal(r.json.switched, false);
  const window = show(f, "w1").tmux.window;
  assert.equal(
    r.json.command,
    `tmux -L ${f.server.socket} attach-session -t docket-workers ';' select-window -t ${window}`,
  );
});

test("respawn all starts every finished worker of this project again and leaves running ones alone", async (t) => {
  const f = fixture(t);
  assertExit(
    f.run("spawn", "--agent", "command", "--as", "scout", "--cmd", 'echo "g$DOCKET_GENERATION"; sleep 0.2', "quick"),
  );
  assertExit(f.run("spawn", "--agent", "command", "--as", "scout", "--cmd", "sleep 60", "long"));
  await waitFor("w1 to exit", () => show(f, "w1").launches[0].exitedAt !== null);
  const r = f.run("respawn", "all", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json, { workers: [{ worker: "w1", generation: 2 }] });
  assert.equal(show(f, "w2").generation, 1);
  const unknown = f.run("respawn", "w9", "--json");
  assertExit(unknown, 1);
  assert.equal(unknown.json.error.code, "worker-not-found");
});
