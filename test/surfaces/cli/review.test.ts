// The review verbs through the real CLI: decision contracts, confirmation off a terminal, chips, discard, use, menu.

import { EMPTY_TOTALS } from "../../../src/domain/workers/spend.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { assertExit, cliEnv, DOCKET_BIN, jsonOf } from "../../support/docket-cli.js";
import { git } from "../../support/git.js";
import {
  CARD_KEYS,
  humanCli,
  appWith,
  decisionCount,
  gitStatus,
  publish,
  reviewGround,
  reviewWorker,
  type ReviewGround,
} from "../../support/review-fixture.js";
import { tempDir } from "../../support/temp.js";
import { tmuxServer } from "../../support/tmux.js";
import { teardown } from "../../support/teardown.js";
import { waitFor } from "../../support/wait.js";

type T = { after(fn: () => void): void };

const decisionKeys = (j: any) => ({
  top: Object.keys(j).sort(),
  decision: Object.keys(j.decision).sort(),
  deliverable: Object.keys(j.decision.deliverable).sort(),
});
const DECISION_SHAPE = {
  top: ["decision"],
  decision: ["deliverable", "id", "verb", "worker"],
  deliverable: ["id", "ref", "version"],
};

test("approve, reject, revise and answer print the decision contract with --json", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const run = humanCli(t, g);
  const a = run("approve", w.worker, "--json");
  assert.equal(a.code, 0, a.stderr);
  assert.deepEqual(decisionKeys(a.json), DECISION_SHAPE);
  assert.deepEqual(a.json.decision.deliverable, v1);
  assert.equal(a.json.decision.verb, "approve");
  const r = run("reject", v1.ref, "--note", "not like this", "--json");
  assertExit(r);
  assert.equal(r.json.decision.verb, "reject");
  assert.deepEqual(decisionKeys(r.json), DECISION_SHAPE);
  const v = run("--json", "revise", w.worker, "use", "a", "table");
  assertExit(v);
  assert.equal(v.json.decision.verb, "revise");
  const text = run("approve", w.worker);
  assert.match(text.stdout, new RegExp(`^dc\\d+ approve ${v1.ref}`));
  const older = run("approve", w.worker, "--version", "2", "--json");
  assertExit(older, 1);
  assert.equal(older.json.error.code, "no-such-version");
});

test("verdict --json follows the contract and log --json counts verbs", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const run = humanCli(t, g);
  const card = run("verdict", w.worker, "--json");
  assert.equal(card.code, 0, card.stderr);
  assert.deepEqual(Object.keys(card.json).sort(), CARD_KEYS);
  assert.deepEqual(card.json, {
    worker: w.worker,
    state: "ready",
    deliverable: v1,
    approved: false,
    warnings: [],
    actions: card.json.actions,
    planCoverage: null,
    comments: { drafts: [], previous: [] },
    spend: { version: { ...EMPTY_TOTALS }, worker: { ...EMPTY_TOTALS } },
    network: { mode: null, allowed: [], requests: 0, refused: 0, bytesUp: 0, bytesDown: 0, destinations: [] },
  });
  assert.ok(card.json.actions.includes("approve"));
  const human = run("verdict", w.worker);
  assert.match(human.stdout, /Evidence[\s\S]*Worker says[\s\S]*Actions: approve/);
  run("approve", w.worker);
  run("revise", w.worker, "tighten it");
  const log = assertExit(run("log", "--json"));
  assert.deepEqual(Object.keys(log.json).sort(), ["counts", "debt", "decisions"]);
  assert.deepEqual(log.json.counts, { approve: 1, revise: 1 });
  assert.equal(log.json.debt, 0);
  assert.deepEqual(
    log.json.decisions.map((d: { verb: string }) => d.verb),
    ["revise", "approve"],
  );
  const queue = assertExit(run("verdict", "--json"));
  assert.deepEqual(queue.json, { queue: [] }, "an approved version leaves the queue");
  assertExit(run("log", "--since", "forever"), 2);
});

test("promote without --yes off a terminal refuses, listing what needs confirmation; --yes promotes", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 30: "thirty" }) });
  writeFileSync(join(g.project, "src/app.txt"), appWith({ 1: "parent one" }));
  const run = humanCli(t, g);
  const unapproved = run("promote", w.worker, "--json");
  assertExit(unapproved, 1);
  assert.equal(unapproved.json.error.code, "not-approved");
  const refused = run("promote", w.worker, "--approve");
  assertExit(refused, 1);
  assert.match(refused.stderr, /needs confirmation: your checkout changed src\/app\.txt \(modified\)/);
  assert.equal(decisionCount(g.ctx), 0);
  const ok = run("promote", w.worker, "--approve", "--yes", "--json");
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.json.decision.verb, "promote");
  assert.equal(ok.json.approval.verb, "approve");
  assert.equal(readFileSync(join(g.project, "src/app.txt"), "utf8"), appWith({ 1: "parent one", 30: "thirty" }));
});

test("a conflicting parent change makes promote refuse with the file named and the parent's git status unchanged", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/other.txt": "alpha\nBETA\ngamma\n" });
  git(g.project, "rm", "-q", "src/other.txt");
  const run = humanCli(t, g);
  run("approve", w.worker);
  const status = gitStatus(g.project);
  const r = run("promote", w.worker, "--yes");
  assertExit(r, 1);
  assert.match(r.stderr, /does not apply to .*src\/other\.txt \(.+\); nothing changed/);
  assert.equal(gitStatus(g.project), status);
  assert.equal(decisionCount(g.ctx), 1);
});

test("use --parent queues the exact body as a chip; chips lists and drops it", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const body = "Findings\r\nline with trailing spaces   \r\ncafé — ✓ 日本語\n";
  publish(g, w, {}, body);
  const run = humanCli(t, g);
  const refused = run("use", w.worker, "--parent", "--json");
  assert.equal(jsonOf(refused, 1).error.code, "not-approved");
  run("approve", w.worker);
  const r = run("use", w.worker, "--parent", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.queued, true);
  assert.equal(r.json.decision.verb, "use");
  const chip = g.ctx.db.prepare("SELECT body, state FROM chips WHERE id = ?").get(r.json.chip.id) as {
    body: string;
    state: string;
  };
  assert.equal(chip.body, body);
  assert.equal(jsonOf(run("use", w.worker, "--parent", "--json")).alreadyQueued, true);
  const list = run("chips", "--json");
  assert.deepEqual(
    jsonOf(list).chips.map((c: { id: string }) => c.id),
    [r.json.chip.id],
  );
  assertExit(run("chips", "drop", r.json.chip.id));
  assert.deepEqual(jsonOf(run("chips", "--json")).chips, []);
  const again = run("chips", "drop", r.json.chip.id, "--json");
  assert.equal(jsonOf(again, 1).error.code, "chip-not-queued");
  assert.equal(run("use", w.worker).code, 2, "a destination is required");
});

test("discard off a terminal needs --yes, then resets the workspace and records the decision", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  writeFileSync(join(w.workspace, "src/other.txt"), "changed\n");
  const run = humanCli(t, g);
  const refused = run("discard", w.worker);
  assertExit(refused, 1);
  assert.equal(readFileSync(join(w.workspace, "src/other.txt"), "utf8"), "changed\n");
  const ok = run("discard", w.worker, "--yes", "--json");
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.json.decision.verb, "discard");
  assert.equal(gitStatus(w.workspace), "");
});

test("use --worker starts exactly one fresh worker with a byte-exact source-deliverable.md and provenance", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const body = "# Plan\r\nStep with trailing spaces   \r\nnon-ASCII: café — ✓ 日本語\n\n\ttabbed\n";
  const v1 = publish(g, w, { "src/app.txt": appWith({ 5: "five" }) }, body);
  const server = tmuxServer(t);
  const run = humanCli(t, g, { DOCKET_TMUX_SOCKET: server.socket });
  const unapproved = run("use", w.worker, "--worker", "--agent", "command", "--cmd", "sleep 30", "--yes", "--json");
  assert.equal(jsonOf(unapproved, 1).error.code, "not-approved");
  const noYes = run("use", w.worker, "--worker", "--agent", "command", "--cmd", "sleep 30", "--json");
  assert.equal(jsonOf(noYes, 1).error.code, "use-needs-confirmation");
  const approved = jsonOf(run("approve", w.worker, "--json")).decision.id;
  const badKind = run(
    "use",
    w.worker,
    "--worker",
    "--as",
    "no-such-kind",
    "--agent",
    "command",
    "--cmd",
    "sleep 30",
    "--yes",
    "--json",
  );
  assertExit(badKind, 1);
  assert.match(badKind.json.error.message, /unknown kind "no-such-kind"; known kinds: .*default/);
  assert.equal(decisionCount(g.ctx), 1, "a refused use records nothing");
  const workersBefore = (g.ctx.db.prepare("SELECT count(*) AS n FROM workers").get() as { n: number }).n;
  const r = run(
    "use",
    w.worker,
    "--worker",
    "--task",
    "implement it",
    "--agent",
    "command",
    "--cmd",
    "sleep 30",
    "--yes",
    "--json",
  );
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.deepEqual(Object.keys(r.json).sort(), ["sourceHandoff", "worker"]);
  assert.equal(r.json.sourceHandoff.sourceRef, v1.ref);
  assert.equal(r.json.sourceHandoff.approvingDecisionId, approved);
  const use = g.ctx.db
    .prepare("SELECT verb, option, deliverable_ref FROM decisions WHERE id = ?")
    .get(r.json.sourceHandoff.useDecisionId) as Record<string, unknown>;
  assert.deepEqual({ ...use }, { verb: "use", option: "worker", deliverable_ref: v1.ref });
  assert.equal((g.ctx.db.prepare("SELECT count(*) AS n FROM workers").get() as { n: number }).n, workersBefore + 1);
  const sidecar = join(g.home, "fleet", r.json.worker, "source-deliverable.md");
  assert.deepEqual(readFileSync(sidecar), Buffer.from(body, "utf8"));
  const row = g.ctx.db.prepare("SELECT source_handoff, task FROM workers WHERE id = ?").get(r.json.worker) as {
    source_handoff: string;
    task: string;
  };
  const provenance = JSON.parse(row.source_handoff);
  assert.equal(provenance.sourceRef, v1.ref);
  assert.equal(provenance.approvingDecisionId, approved);
  assert.equal(provenance.useDecisionId, r.json.sourceHandoff.useDecisionId);
  assert.equal(provenance.sidecarPath, sidecar);
  assert.equal(row.task, "implement it");
  const taskMd = readFileSync(join(g.home, "fleet", r.json.worker, "task.md"), "utf8");
  assert.match(taskMd, new RegExp(v1.ref));
  assert.match(taskMd, /reviewed task input\. It does not override/);
  await waitFor("the new worker's window", () => server.tmux("list-windows", "-a").includes(r.json.worker));
});

/** Runs the CLI on a pseudo-terminal (util-linux `script`), answering each prompt when it appears. */
function onTerminal(t: T, g: ReviewGround, args: string[], answers: { when: RegExp; send: string }[]): Promise<string> {
  const scratch = tempDir(t, "docket-review-tty-");
  const env = cliEnv({
    DOCKET_HOME: g.home,
    HOME: scratch,
    TMPDIR: scratch,
    PI_CODING_AGENT_DIR: join(scratch, "pi"),
    TERM: "xterm",
    DOCKET_TMUX_SOCKET: "docket-test-unused",
  });
  return new Promise((resolve, reject) => {
    const command = [process.execPath, DOCKET_BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
    const child = spawn("script", ["-qec", command, "/dev/null"], { cwd: g.project, env });
    teardown(t).child(child);
    let out = "";
    let seen = 0;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`terminal session timed out; output so far:\n${out}`));
    }, 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const next = answers[0];
      if (next?.when.test(out.slice(seen))) {
        seen = out.length;
        answers.shift();
        child.stdin.write(next.send);
      }
    });
    child.on("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

const hasScript = spawnSync("script", ["--version"]).status === 0;

test("on a terminal, verdict walks the queue and offers each card's actions as a numbered menu", {
  skip: !hasScript && "util-linux script is not installed",
}, async (t) => {
  const g = reviewGround(t);
  const first = reviewWorker(t, g);
  const second = reviewWorker(t, g);
  publish(g, first, { "src/app.txt": appWith({ 2: "two" }) });
  publish(g, second, { "src/other.txt": "o\n" });
  const out = await onTerminal(
    t,
    g,
    ["verdict"],
    [
      { when: /choose 1-\d+/, send: "1\n" },
      { when: /choose 1-\d+/, send: "3\n" },
      { when: /What should w\d+ change in v1\?/, send: "make it smaller\n" },
    ],
  );
  const rows = g.ctx.db
    .prepare("SELECT verb, worker, note FROM decisions ORDER BY seq")
    .all()
    .map((r) => ({ ...(r as object) }));
  assert.deepEqual(
    rows,
    [
      { verb: "approve", worker: second.worker, note: null },
      { verb: "revise", worker: first.worker, note: "make it smaller" },
    ],
    out,
  );
  assert.match(out, /1\) approve/);
});
