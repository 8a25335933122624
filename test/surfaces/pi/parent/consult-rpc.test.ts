// Claim: the consult lane with the real pi — a pi worker's docket_consult reaches the human's pi session, whose own
// (scripted) model answers it in a separate request when the human opted in: the answer reaches the worker framed as the
// parent agent's, is a parent-agent decision, and never enters the human's conversation. Off, a consult is the human's
// question; a decline or an expired window makes it the human's with the reason. A note is shown, never routed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { scriptedModelFlags } from "../../../support/scripted-pi.js";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { docket } from "../../../support/docket-cli.js";
import { parentFixture, type Parent } from "../../../support/pi-parent.js";
import { notified, SCRIPTED_MODEL, type PiRpc } from "../../../support/pi-rpc.js";
import { waitFor } from "../../../support/wait.js";

const SLOW = 120_000;

function optIn(p: Parent, windowSeconds = 60): void {
  writeFileSync(
    join(p.home, "config.json"),
    JSON.stringify({ messaging: { autoAnswer: true, consultWindowSeconds: windowSeconds } }),
  );
}

const lines = (path: string): any[] =>
  existsSync(path)
    ? readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
const question = (p: Parent, id = "q1") =>
  p.ledger(
    (db) =>
      db.prepare("SELECT state, audience, consult, escalation, answer FROM questions WHERE id = ?").get(id) as any,
  );
const decisionsOf = (p: Parent) =>
  p.ledger(
    (db) => db.prepare("SELECT actor, verb, worker, question, option, note FROM decisions ORDER BY seq").all() as any[],
  );
const notice = (pi: PiRpc, needle: string) => notified(pi, needle, SLOW);

test("auto-answer on: a real pi worker's consult is answered by the parent session's model, framed as the parent agent's, and kept out of the human's conversation; its note is only shown", {
  timeout: 400_000,
}, async (t) => {
  const p = parentFixture(t, [
    { toolCall: { name: "docket_answer", arguments: { answer: "8080, from the staging compose file" } } },
    { text: "Hello, human." },
  ]);
  optIn(p);
  const pi = p.start();
  await pi.call({ type: "get_state" });

  const workerScript = join(p.home, "..", "worker-script.json");
  const workerLog = join(p.home, "..", "worker-model.log");
  writeFileSync(
    workerScript,
    JSON.stringify([
      {
        toolCall: {
          name: "docket_note",
          arguments: { text: "NOTE-MARKER the staging port lives in compose.yml", to: ["w9"] },
        },
      },
      {
        toolCall: {
          name: "docket_consult",
          arguments: {
            question: "CONSULT-MARKER which port does the staging API listen on?",
            context: "README says nothing",
          },
        },
      },
      { text: "Thanks, using it." },
    ]),
  );
  const spawnEnv = { ...p.env, DOCKET_PI_ARGS: `-ne -ns -np -nc --no-themes -e ${SCRIPTED_MODEL}` };
  const spawned = docket(
    { env: spawnEnv, cwd: p.repo },
    "spawn",
    "--as",
    "scout",
    ...scriptedModelFlags(workerScript),
    "--env",
    `DOCKET_SCRIPTED_MODEL_LOG=${workerLog}`,
    "--yes",
    "--json",
    "find",
    "the",
    "staging",
    "port",
  );
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);

  const shared = await notice(pi, "NOTE-MARKER");
  assert.equal(
    shared.message,
    "docket · w1 shared: NOTE-MARKER the staging port lives in compose.yml\n  suggested for w9",
  );
  await waitFor(
    "the parent agent's answer decision",
    () => decisionsOf(p).find((d) => d.actor === "parent-agent"),
    SLOW,
  );
  assert.deepEqual(
    decisionsOf(p).map((d) => [d.actor, d.verb, d.worker, d.question, d.option]),
    [["parent-agent", "answer", "w1", "q1", "8080, from the staging compose file"]],
  );
  assert.deepEqual(
    { ...question(p) },
    {
      state: "answered",
      audience: "parent-agent",
      consult: 1,
      escalation: null,
      answer: "8080, from the staging compose file",
    },
  );

  const asked = lines(p.modelLog)[0];
  assert.match(
    asked.lastUser,
    /<consult-[0-9a-f]{16} id="q1" worker="w1">\nWorker task: "find the staging port"\nQuestion: "CONSULT-MARKER which port/,
  );
  assert.match(asked.lastUser, /Context from the worker: "README says nothing"/);
  const answered = await waitFor(
    "the worker reading the answer",
    () => lines(workerLog).find((c) => c.step === 2),
    SLOW,
  );
  assert.equal(
    answered.lastUser,
    "[docket · answer from the parent agent, not reviewed by the human · re: question q1]\n8080, from the staging compose file",
  );
  await waitFor(
    "the answer message read",
    () => p.cli("show", "w1", "--json").json.messages.every((m: { delivery: string }) => m.delivery === "read"),
    SLOW,
  );
  await notice(
    pi,
    "w1 consulted · answered by your pi session's model: CONSULT-MARKER which port does the staging API listen on? → 8080",
  );

  // The human's own conversation: its next prompt reaches the model without the consult, the answer or the note.
  const r = await pi.call({ type: "prompt", message: "what happened?" });
  assert.equal(r.success, true);
  await waitFor("the human's prompt served", () => lines(p.modelLog).length === 2, SLOW);
  const context = readFileSync(p.contextLog, "utf8");
  assert.match(context, /what happened\?/);
  for (const marker of ["CONSULT-MARKER", "NOTE-MARKER", "8080"])
    assert.ok(!context.includes(marker), `${marker} never entered the human's conversation`);
  assert.equal(
    p.ledger((db) => (db.prepare("SELECT count(*) AS n FROM notes WHERE worker = 'w1'").get() as { n: number }).n),
    1,
  );
  assert.equal(p.cli("show", "w1", "--json").json.deliverable, null, "a note is never a deliverable");
  assert.equal(await pi.close(), 0);
});

test("auto-answer off (the default): a consult is the human's question at once, the parent's model is never asked, and the human's answer is a human decision", {
  timeout: 300_000,
}, async (t) => {
  const p = parentFixture(t, [{ text: "a reply to the human" }]);
  const pi = p.start();
  await pi.call({ type: "get_state" });
  assert.equal(p.cli("spawn", "--agent", "command", "--cmd", "sleep 600", "--yes", "tune the cache").code, 0);
  const r = p.asWorker("w1", "worker", "consult", "--question", "OFF-MARKER which cache backend is in use?", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json, { question: "q1", audience: "human", state: "needs_input" });
  await notice(pi, "docket · w1 asks: (consult) OFF-MARKER which cache backend is in use?");
  assert.equal(
    p.cli("ls", "--json").json.workers[0].state,
    "needs_input",
    "not shown as consulting: nobody but the human will answer",
  );

  const prompt = await pi.call({ type: "prompt", message: "hello" });
  assert.equal(prompt.success, true);
  const calls = await waitFor(
    "the human's prompt served",
    () => (lines(p.modelLog).length > 0 ? lines(p.modelLog) : undefined),
    SLOW,
  );
  assert.equal(
    calls[0].lastUser,
    "hello",
    "the first model call is the human's own: the consult was never put to the model",
  );

  const from = pi.seen.length;
  await pi.call({ type: "prompt", message: "/docket answer w1 redis" });
  assert.ok(pi.ui("notify", from).some((m) => String(m.message).startsWith("dc1 answer w1")));
  assert.deepEqual(
    decisionsOf(p).map((d) => [d.actor, d.verb, d.question, d.option]),
    [["human", "answer", "q1", "redis"]],
  );
  assert.equal(await pi.close(), 0);
});

test("a consult the parent agent declines becomes the human's question, marked escalated with its reason", {
  timeout: 300_000,
}, async (t) => {
  const p = parentFixture(t, [
    { toolCall: { name: "docket_escalate", arguments: { reason: "whether to drop the table is the human's call" } } },
  ]);
  optIn(p);
  const pi = p.start();
  await pi.call({ type: "get_state" });
  assert.equal(p.cli("spawn", "--agent", "command", "--cmd", "sleep 600", "--yes", "migrate the schema").code, 0);
  assert.equal(p.asWorker("w1", "worker", "consult", "--question", "may I drop the legacy table?").code, 0);
  await waitFor("the escalation", () => question(p).audience === "human", SLOW);
  assert.deepEqual(
    { ...question(p) },
    {
      state: "open",
      audience: "human",
      consult: 1,
      escalation: "your pi session's model declined: whether to drop the table is the human's call",
      answer: null,
    },
  );
  assert.deepEqual(
    decisionsOf(p).map((d) => [d.actor, d.verb, d.question, d.note]),
    [
      [
        "parent-agent",
        "escalate",
        "q1",
        "your pi session's model declined: whether to drop the table is the human's call",
      ],
    ],
  );
  const shown = await notice(pi, "(consult, now yours) may I drop the legacy table?");
  assert.match(
    shown.message,
    /escalated: your pi session's model declined: whether to drop the table is the human's call/,
  );
  assert.equal(p.cli("ls", "--json").json.workers[0].state, "needs_input");
  assert.match(
    p.cli("verdict", "w1").stdout,
    /q1: may I drop the legacy table\? \(consult · escalated: your pi session's model declined/,
  );
  assert.equal(await pi.close(), 0);
});

test("a consult the parent's model does not answer within the window is escalated to the human by the system, and a late answer is dropped", {
  timeout: 300_000,
}, async (t) => {
  const p = parentFixture(t, [
    { delayMs: 120_000, toolCall: { name: "docket_answer", arguments: { answer: "too late" } } },
  ]);
  optIn(p, 5);
  const pi = p.start();
  await pi.call({ type: "get_state" });
  assert.equal(p.cli("spawn", "--agent", "command", "--cmd", "sleep 600", "--yes", "slow model").code, 0);
  assert.equal(p.asWorker("w1", "worker", "consult", "--question", "which region?").code, 0);
  await waitFor("the parent's model asked", () => lines(p.modelLog).length === 1, SLOW);
  assert.equal(p.cli("ls", "--json").json.workers[0].state, "consulting", "while the parent agent holds it");
  await waitFor("the window to pass and the consult to be escalated", () => question(p).audience === "human", SLOW);
  assert.equal(question(p).escalation, "your pi session's model did not answer within 5 s");
  assert.deepEqual(
    decisionsOf(p).map((d) => [d.actor, d.verb, d.note]),
    [["system", "escalate", "your pi session's model did not answer within 5 s"]],
  );
  await notice(pi, "escalated: your pi session's model did not answer within 5 s");
  assert.equal(decisionsOf(p).filter((d) => d.verb === "answer").length, 0, "no answer was recorded after the window");
  assert.equal(await pi.close(), 0);
});
