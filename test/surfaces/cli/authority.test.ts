// Only the human judges, through the real CLI (docs/decisions/authority.md): run from a worker's environment, every
// human verb exits 1 with worker-cannot-judge and writes nothing; the same approve from the human's terminal is
// recorded.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { HUMAN_VERBS, type HumanVerb } from "../../../src/domain/authority.js";
import { everyVerbGround } from "../../support/authority-ground.js";
import { identityEnv } from "../../support/protocol-worker.js";
import { cliEnv, docket } from "../../support/docket-cli.js";
import { appWith, gitStatus, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { fileTree, ledgerRows } from "../../support/snapshot.js";
import { tmuxServer } from "../../support/tmux.js";

/** The command line of each human verb; `chips take` is the pi parent's prompt hook and has none. */
const COMMAND_LINES: Record<HumanVerb, string[] | null> = {
  approve: ["approve", "w1"],
  reject: ["reject", "w1", "--note", "no"],
  revise: ["revise", "w1", "do", "more"],
  answer: ["answer", "w1", "yes"],
  promote: ["promote", "w1", "--approve", "--yes"],
  discard: ["discard", "w1"],
  use: ["use", "w1", "--parent"],
  "chips drop": ["chips", "drop", "c1"],
  "chips take": null,
  save: ["save", "--from", "w1"],
  load: ["load", "last"],
  unload: ["unload", "d1"],
  "deliverable delete": ["deliverable", "delete", "last", "--yes"],
  dispatch: ["dispatch", "w1", "t2"],
  "item add": ["item", "add", "sneaky"],
  "item edit": ["item", "edit", "t1", "edited"],
  "item reply": ["item", "reply", "t1", "a", "reply"],
  "obligation park": ["obligation", "park", "o1", "--until", "2030-01-01T00:00:00Z"],
  "obligation unpark": ["obligation", "unpark", "o1"],
  "attention dismiss": ["attention", "--dismiss", "n1"],
  spawn: ["spawn", "--agent", "command", "--cmd", "true", "--yes", "another"],
  respawn: ["respawn", "w1"],
  delete: ["delete", "w1", "--yes", "--force"],
  prune: ["prune"],
  tell: ["tell", "w1", "hello"],
  broadcast: ["broadcast", "--yes", "src/app.txt", "changed"],
  combine: ["combine", "w1", "w2"],
  comment: ["comment", "w1", "src/app.txt:3", "why", "this"],
  "hosts add": ["hosts", "add", "box", "dev@127.0.0.1"],
  "hosts rm": ["hosts", "rm", "box"],
};

test("every human verb has its command line here", () => {
  assert.deepEqual(Object.keys(COMMAND_LINES).sort(), [...HUMAN_VERBS].sort());
});

test("run from a worker's environment, every human verb exits 1 with worker-cannot-judge and writes nothing", {
  timeout: 300_000,
}, (t) => {
  const server = tmuxServer(t);
  const { g, w } = everyVerbGround(t);
  writeFileSync(join(g.project, "body.md"), "a human's record\n");
  g.ctx.close();

  const human = cliEnv({ DOCKET_HOME: g.home, DOCKET_TMUX_SOCKET: server.socket });
  const asWorker = { ...human, ...identityEnv(w) };
  const snapshot = () => ({
    rows: ledgerRows(g.ctx.home.ledger),
    home: fileTree(g.home),
    project: gitStatus(g.project),
    workspace: gitStatus(w.workspace),
  });
  const before = snapshot();
  for (const verb of HUMAN_VERBS) {
    const line = COMMAND_LINES[verb];
    if (!line) continue;
    const r = docket({ env: asWorker, cwd: g.project }, ...line, "--json");
    assert.equal(r.code, 1, `${verb}: ${r.stdout}${r.stderr}`);
    assert.equal(r.json?.error?.code, "worker-cannot-judge", `${verb}: ${r.stdout}`);
    assert.match(r.json.error.message, new RegExp(`^${verb} is the human's: this process carries a worker identity`));
  }
  const save = docket({ env: asWorker, cwd: g.project }, "save", "--author", "body.md", "--outcome", "findings");
  assert.equal(save.code, 1);
  assert.match(
    save.stderr,
    /^docket: save is the human's: this process carries a worker identity \(DOCKET_WORKER_ID, DOCKET_GENERATION, DOCKET_RUN_TOKEN\); nothing was changed/,
  );
  assert.deepEqual(snapshot(), before, "no refused verb wrote anything");

  const mine = docket({ env: human, cwd: g.project }, "reject", "w1", "--json");
  assert.equal(mine.code, 0, mine.stdout + mine.stderr);
  assert.equal(mine.json.decision.verb, "reject", "from the human's terminal the same verb is recorded");
});

test("read verbs and the worker's own protocol still work from a worker's environment", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  g.ctx.close();
  const env = cliEnv({ DOCKET_HOME: g.home, ...identityEnv(w) });
  for (const line of [["verdict", "w1"], ["diff", "w1"], ["log"], ["item", "ls"], ["deliverables"]]) {
    const r = docket({ env, cwd: g.project }, ...line, "--json");
    assert.equal(r.code, 0, `${line.join(" ")}: ${r.stdout}${r.stderr}`);
  }
  const beat = docket({ env, cwd: g.project }, "worker", "heartbeat", "--json");
  assert.equal(beat.code, 0, beat.stdout + beat.stderr);
});
