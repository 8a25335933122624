// The pi PARENT role driven for real: `pi --mode rpc` with the Docket extension and the scripted model, a private
// tmux server for command workers, and the docket CLI playing the workers.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parentFixture as parent } from "../../../support/pi-parent.js";
import { notified, parentPiArgs, SCRIPTED_MODEL, type PiRpc, type RpcMessage } from "../../../support/pi-rpc.js";
import { assertExit, jsonOf } from "../../../support/docket-cli.js";
import { spawnSync } from "node:child_process";

/** Runs `/docket …` as a prompt; resolves with the UI requests it caused (the response comes after the handler). */
async function slash(pi: PiRpc, text: string): Promise<RpcMessage[]> {
  const from = pi.seen.length;
  const r = await pi.call({ type: "prompt", message: text });
  assert.equal(r.success, true, `${text}: ${JSON.stringify(r)}`);
  return pi.seen.slice(from).filter((m) => m.type === "extension_ui_request");
}

/** Docket's notifications (`docket · …`) that mention `needle`; a verb's own output (ls shows why a worker failed) is not one. */
const notices = (pi: PiRpc, needle: string, from = 0) =>
  pi.ui("notify", from).filter((m) => String(m.message).startsWith("docket · ") && String(m.message).includes(needle));
/** Every /docket command ends with a full repaint of the dock and the due notifications: nothing may show twice. */
const repaint = (pi: PiRpc) => slash(pi, "/docket ls");
const ready = (pi: PiRpc) => pi.call({ type: "get_state" });

test("/docket runs the CLI verbs in-process: item add writes the ledger, ls output is a notification, get_commands lists docket", async (t) => {
  const p = parent(t);
  const pi = p.start();
  await ready(pi);
  const commands = await pi.call({ type: "get_commands" });
  const docketCommand = commands.data.commands.find((c: { name: string }) => c.name === "docket");
  assert.ok(docketCommand, JSON.stringify(commands.data));
  assert.equal(docketCommand.source, "extension");

  const added = await slash(pi, "/docket item add \"typed over\" 'rpc'");
  const items = jsonOf(p.cli("item", "ls", "--json"));
  assert.deepEqual(
    items.items.map((i: { id: string; text: string }) => [i.id, i.text]),
    [["t1", "typed over rpc"]],
  );
  assert.ok(
    added.some((m) => m.method === "notify" && String(m.message).startsWith("t1 added")),
    JSON.stringify(added),
  );

  const listed = await slash(pi, "/docket item ls");
  const shown = listed.filter((m) => m.method === "notify");
  assert.equal(shown.length, 1);
  assert.match(shown[0]!.message, /t1\s+open\s+rev 1\s+typed over rpc/);
  assert.equal(shown[0]!.notifyType, "info");

  const asJson = (await slash(pi, "/docket item ls --json")).filter((m) => m.method === "notify");
  assert.equal(asJson.length, 1);
  assert.deepEqual(JSON.parse(asJson[0]!.message), items, "--json gives the same document as the CLI");

  const bad = await slash(pi, "/docket show w99");
  const refused = bad.filter((m) => m.method === "notify");
  assert.equal(refused.length, 1);
  assert.equal(refused[0]!.notifyType, "error");
  assert.match(refused[0]!.message, /^docket: .*w99/);
  const usage = (await slash(pi, "/docket frobnicate")).filter((m) => m.method === "notify");
  assert.equal(usage.length, 1);
  assert.equal(usage[0]!.notifyType, "error");
  assert.equal(usage[0]!.message, 'docket: unknown command "frobnicate" — try /docket help');

  const help = await slash(pi, "/docket");
  assert.ok(
    help.some((m) => m.method === "notify" && String(m.message).includes("Workers: /docket spawn")),
    JSON.stringify(help),
  );
  const verbHelp = await slash(pi, "/docket help spawn");
  assert.ok(
    verbHelp.some((m) => m.method === "notify" && String(m.message).includes("Usage: /docket spawn")),
    JSON.stringify(verbHelp),
  );

  assert.equal(existsSync(p.modelLog), false, "no /docket command may call the model");
  assert.equal(await pi.close(), 0);
});

test("a confirm dialog answered over RPC decides a delete, and the dock lists the spawned worker", async (t) => {
  const p = parent(t);
  const pi = p.start();
  await ready(pi);
  const spawned = await slash(pi, "/docket spawn --agent command --cmd 'sleep 600' --yes watch the logs");
  assert.ok(
    spawned.some((m) => m.method === "notify" && String(m.message).startsWith("w1 started")),
    JSON.stringify(spawned),
  );
  const dock = await pi.waitFor(
    "a dock line for w1",
    (m) =>
      m.method === "setWidget" &&
      m.widgetKey === "docket" &&
      (m.widgetLines ?? []).some((l: string) => l.includes("w1") && l.includes("watch the logs")),
  );
  assert.equal(dock.widgetLines.length, 1);
  assert.doesNotMatch(dock.widgetLines[0], /gone/, "a command worker that just started is not shown as gone");
  const status = await pi.waitFor(
    "a dock status",
    (m) => m.method === "setStatus" && m.statusKey === "docket" && typeof m.statusText === "string",
  );
  assert.equal(status.statusText, "docket · 1 running");

  pi.answerNext({ confirmed: false });
  const declined = await slash(pi, "/docket delete w1");
  const question = declined.find((m) => m.method === "confirm");
  assert.ok(question, JSON.stringify(declined));
  assert.match(question!.message, /Delete w1 \(watch the logs\)\?/);
  assert.equal(jsonOf(p.cli("show", "w1", "--json")).worker, "w1", "declining keeps the worker");
  assert.equal(
    p.ledger(
      (db) =>
        (db.prepare("SELECT deleted_at FROM workers WHERE id = 'w1'").get() as { deleted_at: string | null })
          .deleted_at,
    ),
    null,
  );

  pi.answerNext({ confirmed: true });
  const confirmed = await slash(pi, "/docket delete w1");
  assert.equal(confirmed.filter((m) => m.method === "confirm").length, 1);
  const gone = p.cli("show", "w1", "--json");
  assertExit(gone, 1);
  assert.ok(
    p.ledger(
      (db) =>
        (db.prepare("SELECT deleted_at FROM workers WHERE id = 'w1'").get() as { deleted_at: string | null })
          .deleted_at,
    ),
  );
  await pi.waitFor(
    "the dock cleared",
    (m) => m.method === "setWidget" && m.widgetKey === "docket" && m.widgetLines === undefined,
    { from: pi.seen.length - confirmed.length },
  );
  assert.equal(await pi.close(), 0);
});

test("a worker's question and failure reach the parent exactly once, and a restarted parent does not repeat them", async (t) => {
  const p = parent(t);
  let pi = p.start();
  await ready(pi);
  for (const task of ["first worker", "second worker"]) {
    const spawned = await slash(pi, `/docket spawn --agent command --cmd 'sleep 600' --yes ${task}`);
    assert.ok(
      spawned.some((m) => m.method === "notify" && / started /.test(String(m.message))),
      JSON.stringify(spawned),
    );
  }

  const asked = p.asWorker(
    "w1",
    "worker",
    "wait",
    "--question",
    "QUESTION-MARKER which database?",
    "--option",
    "sqlite",
    "--option",
    "postgres",
  );
  assert.equal(asked.code, 0, asked.stderr);
  const q = await notified(pi, "QUESTION-MARKER");
  assert.equal(q.message, "docket · w1 asks: QUESTION-MARKER which database?\n  1) sqlite\n  2) postgres");
  assert.equal(q.notifyType, "warning");
  await pi.waitFor(
    "the dock shows the question",
    (m) =>
      m.method === "setWidget" &&
      (m.widgetLines ?? []).some((l: string) => l.startsWith("? w1") && l.includes("1 question")),
  );

  const failed = p.asWorker("w2", "worker", "fail", "--reason", "FAIL-MARKER the disk is full");
  assert.equal(failed.code, 0, failed.stderr);
  const f = await notified(pi, "FAIL-MARKER");
  assert.equal(f.message, "docket · w2 failed: FAIL-MARKER the disk is full");
  assert.equal(f.notifyType, "error");

  await repaint(pi);
  assert.equal(notices(pi, "QUESTION-MARKER").length, 1);
  assert.equal(notices(pi, "FAIL-MARKER").length, 1);
  const undelivered = p.ledger(
    (db) => db.prepare("SELECT count(*) AS n FROM notifications WHERE delivered_at IS NULL").get() as { n: number },
  );
  assert.equal(undelivered.n, 0);
  assert.equal(await pi.close(), 0);

  // A notification written while no parent runs is shown by the next one; the old ones are not repeated.
  const doneBody = join(p.repo, "..", "body.md");
  writeFileSync(doneBody, "READY-MARKER findings\n");
  const answered = p.cli("answer", "w1", "sqlite");
  assert.equal(answered.code, 0, answered.stderr);
  assertExit(p.asWorker("w1", "worker", "done", "--outcome", "findings", "--body-file", doneBody));
  pi = p.start();
  await ready(pi);
  const r = await pi.waitFor(
    "the ready notification after restart",
    (m) => m.method === "notify" && String(m.message).includes("READY-MARKER"),
  );
  assert.match(
    r.message,
    /^docket · w1 is ready for review: worker-deliverable:w1:1 \(findings\): READY-MARKER findings/,
  );
  assert.equal(r.notifyType, "info", "a version ready for review is news, not a warning");
  await repaint(pi);
  assert.equal(notices(pi, "QUESTION-MARKER").length, 0);
  assert.equal(notices(pi, "FAIL-MARKER").length, 0);
  assert.equal(notices(pi, "READY-MARKER").length, 1);
  assert.equal(existsSync(p.modelLog), false, "notifications never call the model");
  assert.equal(await pi.close(), 0);
});

test("a Use → Parent chip reaches the model with the next prompt only, and nothing else from a worker does", async (t) => {
  const p = parent(t, [{ text: "first answer" }, { text: "second answer" }]);
  const pi = p.start();
  await ready(pi);
  await slash(pi, "/docket spawn --agent command --cmd 'sleep 600' --yes write the plan");
  await slash(pi, "/docket spawn --agent command --cmd 'sleep 600' --yes another worker");
  const body = "# CHIP-MARKER plan\r\n\n- step one — café ✓\n\ttabbed  \n";
  const bodyFile = join(p.repo, "..", "plan.md");
  writeFileSync(bodyFile, body);
  assertExit(
    p.asWorker("w1", "worker", "done", "--outcome", "proposal", "--summary", "SUMMARY-MARKER", "--body-file", bodyFile),
  );
  assertExit(p.asWorker("w2", "worker", "wait", "--question", "QUESTION-MARKER2 go on?"));
  await pi.waitFor(
    "the ready notification",
    (m) => m.method === "notify" && String(m.message).includes("SUMMARY-MARKER"),
  );

  await slash(pi, "/docket approve w1");
  const used = await slash(pi, "/docket use w1 --parent");
  assert.ok(
    used.some((m) => m.method === "notify" && String(m.message).includes("queued worker-deliverable:w1:1")),
    JSON.stringify(used),
  );
  assert.equal(jsonOf(p.cli("chips", "--json")).chips.length, 1);
  const chipLine = "⧉ attached to your next prompt: worker-deliverable:w1:1 · /docket chips drop c1";
  await pi.waitFor(
    "the chip line in the dock",
    (m) => m.method === "setWidget" && (m.widgetLines ?? []).includes(chipLine),
  );

  const end1 = pi.waitFor("agent_end", (m) => m.type === "agent_end", { from: pi.seen.length, timeoutMs: 60_000 });
  await pi.call({ type: "prompt", message: "please summarise the plan" });
  await end1;
  const attached = notices(pi, "attached worker-deliverable:w1:1");
  assert.equal(attached.length, 1);
  const lastDock = pi
    .ui("setWidget")
    .filter((m) => m.widgetKey === "docket")
    .at(-1)!;
  assert.equal((lastDock.widgetLines ?? []).includes(chipLine), false, "the chip line goes once the chip is consumed");
  const end2 = pi.waitFor("agent_end", (m) => m.type === "agent_end", { from: pi.seen.length, timeoutMs: 60_000 });
  await pi.call({ type: "prompt", message: "and now something else" });
  await end2;

  const served = readFileSync(p.modelLog, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { lastUser: string });
  assert.equal(served.length, 2);
  const tag = /^<(docket-deliverable-[0-9a-f]{16}) /.exec(served[0]!.lastUser)?.[1];
  assert.ok(tag, `the chip is wrapped in a tag with a random suffix: ${served[0]!.lastUser.slice(0, 80)}`);
  assert.equal(
    served[0]!.lastUser,
    `<${tag} ref="worker-deliverable:w1:1">\n${body}\n</${tag}>\n\nplease summarise the plan`,
  );
  assert.equal(served[1]!.lastUser, "and now something else");
  assert.equal(jsonOf(p.cli("chips", "--json")).chips.length, 0, "the chip is consumed");

  // Everything the model saw: the chip body once (in the first prompt), no other worker text anywhere.
  const log = readFileSync(p.contextLog, "utf8");
  const seenByModel = JSON.stringify(log);
  for (const marker of ["SUMMARY-MARKER", "QUESTION-MARKER2", "write the plan", "another worker"]) {
    assert.equal(log.includes(marker), false, `${marker} reached the model`);
  }
  const contexts = log
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; messages?: { role: string; content: unknown }[] })
    .filter((e) => e.type === "context");
  const lastContext = contexts[contexts.length - 1]!;
  const userTexts = lastContext.messages!.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
  assert.equal(userTexts.length, 2);
  assert.equal(userTexts.filter((u) => u.includes("CHIP-MARKER")).length, 1);
  assert.ok(seenByModel.length > 0);
  assert.equal(await pi.close(), 0);
});

test("in print mode /docket prints its output on stderr (pi keeps stdout), asks nothing and changes nothing unconfirmed", async (t) => {
  const p = parent(t);
  const spawned = p.cli("spawn", "--agent", "command", "--cmd", "sleep 600", "--yes", "print mode worker");
  assert.equal(spawned.code, 0, spawned.stderr);
  const args = parentPiArgs().concat(["-p", "/docket delete w1"]);
  const r = spawnSync(process.execPath, args, {
    cwd: p.repo,
    env: p.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^docket: deleting w1 needs confirmation; run it on a terminal or pass --yes$/m);
  assert.equal(jsonOf(p.cli("show", "w1", "--json")).worker, "w1", "nothing was confirmed, so nothing was deleted");
  const listed = spawnSync(process.execPath, parentPiArgs().concat(["-p", "/docket ls"]), {
    cwd: p.repo,
    env: p.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  assert.match(listed.stderr, /^w1\s.*print mode worker$/m);
  assert.equal(existsSync(p.modelLog), false);
});

test("a pi worker spawned from inside pi inherits the parent session's model, not pi's configured default", async (t) => {
  const p = parent(t);
  // Workers list their models with the same extra arguments; pi's settings.json names no default model here.
  p.env.DOCKET_PI_ARGS = `-ne -ns -np -nc --no-themes -e ${SCRIPTED_MODEL}`;
  const pi = p.start();
  await ready(pi);
  const spawned = await slash(pi, "/docket spawn --as scout --json look around");
  const out = spawned.find((m) => m.method === "notify" && String(m.message).startsWith("{"));
  assert.ok(out, JSON.stringify(spawned));
  const doc = JSON.parse(String(out!.message)) as { worker: string; execution: { model: string; thinking: string } };
  assert.equal(doc.worker, "w1");
  assert.equal(doc.execution.model, "docket-demo/scripted");
  assert.equal(doc.execution.thinking, "off");
  const fromCli = p.cli("spawn", "--as", "scout", "--json", "look again");
  assert.equal(fromCli.code, 1, "outside pi there is no parent model and settings.json names none");
  assert.match(fromCli.json.error.message, /model/i);
  assert.equal(await pi.close(), 0);
});
