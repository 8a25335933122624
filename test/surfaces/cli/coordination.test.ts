// Coordination through the real CLI, with command workers in real tmux (private socket), real worktrees and SQLite:
// messages pasted into a command worker's pane are delivered; broadcast scores, confirms and delivers; a note is shown
// and can be forwarded; the journal takes what nothing else concerns; a consult expires to the human with no parent
// open; Combine keeps the verdict --json contract and ends in a promotion.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { cliGround } from "../../support/cli-workers.js";
import { docket, type CliRun } from "../../support/docket-cli.js";
import { CARD_KEYS } from "../../support/review-fixture.js";
import { workerIdentityEnv } from "../../support/launch-env.js";
import { waitFor } from "../../support/wait.js";

interface Fixture {
  repo: string;
  home: string;
  run(...args: string[]): CliRun;
  as(worker: string, ...args: string[]): CliRun;
  sql<T>(query: string, ...params: unknown[]): T[];
  pane(worker: string): string;
}

const APP = `${Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;

function fixture(t: { after(fn: () => void): void }, config: Record<string, unknown> = {}): Fixture {
  const { repo, home, env, run } = cliGround(t, { files: { "src/app.txt": APP, "README.md": "hello\n" }, config });
  const f: Fixture = {
    repo,
    home,
    run,
    as: (worker, ...args) => docket({ env: { ...env, ...workerIdentityEnv(home, worker) }, cwd: repo }, ...args),
    sql: (query, ...params) => {
      const db = new Database(join(home, "ledger.sqlite"), { readonly: true });
      try {
        return db.prepare(query).all(...params) as never[];
      } finally {
        db.close();
      }
    },
    pane: (worker) => run("peek", worker, "--lines", "200", "--json").json?.text ?? "",
  };
  return f;
}

async function spawnCommand(f: Fixture, worker: string, cmd: string, task: string): Promise<void> {
  const r = f.run("spawn", "--agent", "command", "--cmd", cmd, "--yes", "--json", task);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.equal(r.json.worker, worker);
  await waitFor(
    `${worker}'s pane`,
    () => f.run("show", worker, "--json").json?.tmux?.pane && f.run("peek", worker).code === 0,
    60_000,
  );
}

test("tell and answer to a command worker are delivered the moment its pane takes the paste, recorded as pasted to that generation", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t);
  await spawnCommand(f, "w1", "cat", "echo back");
  const told = f.run("tell", "w1", "first\nsecond", "--json");
  assert.deepEqual(told.json, { message: "m1", delivery: "delivered" });
  assert.deepEqual(f.sql("SELECT delivery, delivered_via, delivered_generation FROM messages WHERE id = 'm1'"), [
    { delivery: "delivered", delivered_via: "pane", delivered_generation: 1 },
  ]);
  await waitFor("the told text in the pane", () => f.pane("w1").includes("second"), 60_000);

  assert.equal(f.as("w1", "worker", "wait", "--question", "which branch?").code, 0);
  const answered = f.run("answer", "w1", "main", "--json");
  assert.equal(answered.code, 0, answered.stderr);
  assert.deepEqual(f.sql("SELECT kind, delivery, delivered_via FROM messages WHERE id = 'm2'"), [
    { kind: "answer", delivery: "delivered", delivered_via: "pane" },
  ]);
  assert.deepEqual(
    f.run("show", "w1", "--json").json.messages.map((m: { delivery: string }) => m.delivery),
    ["delivered", "delivered"],
  );
});

test("broadcast scores every running worker with its reason, sends only to the confirmed ones at their next turn, and offers the journal when nothing is affected", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t);
  await spawnCommand(f, "w1", "cat", "add a per-tenant rate limit");
  await spawnCommand(f, "w2", "sleep 600", "write the billing docs");
  writeFileSync(join(f.home, "fleet", "w1", "workspace", "src", "rate.ts"), "export const limit = 10;\n");

  const text = "src/rate.ts now exports RateLimiter; re-import it";
  const dry = f.run("broadcast", "--dry-run", "--json", text);
  assert.equal(dry.code, 0, dry.stderr);
  assert.deepEqual(dry.json, {
    rows: [
      {
        worker: "w1",
        band: "affected",
        reason: "edits src/rate.ts",
        kind: "default",
        task: "add a per-tenant rate limit",
      },
      { worker: "w2", band: "unrelated", reason: "no overlap found", kind: "default", task: "write the billing docs" },
    ],
    refused: [],
    sent: [],
    journal: null,
  });
  const unconfirmed = f.run("broadcast", "--json", text);
  assert.equal(unconfirmed.code, 1);
  assert.equal(unconfirmed.json.error.code, "broadcast-needs-confirmation");
  assert.match(unconfirmed.json.error.message, /affected: w1\); nothing was sent/);
  assert.deepEqual(f.sql("SELECT id FROM messages"), [], "nothing sent without the human's choice");

  const sent = f.run("broadcast", "--yes", "--json", text);
  assert.equal(sent.code, 0, sent.stderr);
  assert.deepEqual(sent.json.sent, [{ worker: "w1", message: "m1", delivery: "delivered" }]);
  assert.deepEqual(f.sql("SELECT worker, kind, deliver_as, body FROM messages"), [
    { worker: "w1", kind: "broadcast", deliver_as: "nextTurn", body: text },
  ]);
  await waitFor("the broadcast in w1's pane", () => f.pane("w1").includes("RateLimiter"), 60_000);

  const none = f.run("broadcast", "--yes", "--json", "the CI runner image was upgraded");
  assert.equal(none.code, 1);
  assert.equal(none.json.error.code, "nothing-affected");
  assert.match(none.json.error.hint, /`docket broadcast --journal <text>`/);
  const posted = f.run("broadcast", "--journal", "--json", "the CI runner image was upgraded");
  assert.equal(posted.code, 0, posted.stderr);
  assert.equal(posted.json.journal, "j1");
  const journal = f.run("journal", "--json").json;
  assert.deepEqual(
    journal.entries.map((e: { kind: string; from: string; text: string }) => [e.kind, e.from, e.text]),
    [["broadcast", "you", "the CI runner image was upgraded"]],
  );
  assert.match(readFileSync(journal.file, "utf8"), /the CI runner image was upgraded/);
  assert.equal(f.sql("SELECT id FROM messages").length, 1, "a journal post sends no message");
});

test("a worker's note reaches the human's attention, never another worker, until the human forwards it with broadcast --from", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t);
  await spawnCommand(f, "w1", "sleep 600", "rename the config loader");
  await spawnCommand(f, "w2", "cat", "tune the cache");
  const noted = f.as("w1", "worker", "note", "--to", "w2", "--json", "loadConfig is now readConfig");
  assert.equal(noted.code, 0, noted.stderr);
  assert.deepEqual(noted.json, { note: "nt1", notification: noted.json.notification, suggested: ["w2"] });
  const attention = f.run("attention", "--json").json;
  const shown = JSON.stringify(attention);
  assert.match(shown, /loadConfig is now readConfig/);
  assert.match(shown, /suggested for w2/);
  assert.deepEqual(f.sql("SELECT id FROM messages"), [], "a note is routed to nobody");
  assert.equal(f.run("show", "w1", "--json").json.persistedState, "active", "and changes nothing about its worker");

  const forwarded = f.run("broadcast", "--from", noted.json.notification, "--yes", "--json");
  assert.equal(forwarded.code, 0, forwarded.stderr);
  assert.deepEqual(
    forwarded.json.rows.map((r: { worker: string; band: string; reason: string }) => [r.worker, r.band, r.reason]),
    [["w2", "affected", "addressed by w1"]],
  );
  assert.deepEqual(f.sql("SELECT worker, body FROM messages"), [
    { worker: "w2", body: "> loadConfig is now readConfig\n\n(from w1 · a note, not reviewed)" },
  ]);
  const empty = f.as("w1", "worker", "note", "--json", "   ");
  assert.equal(empty.json.error.code, "note-empty");
});

test("with auto-answer on and no parent session open, a consult past its window is escalated by the human's next read", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t, { messaging: { autoAnswer: true, consultWindowSeconds: 5 } });
  await spawnCommand(f, "w1", "sleep 600", "pick a region");
  const asked = f.as("w1", "worker", "consult", "--question", "which region is primary?", "--json");
  assert.deepEqual(asked.json, { question: "q1", audience: "parent-agent", state: "needs_input" });
  assert.equal(f.run("ls", "--json").json.workers[0].state, "consulting");
  await waitFor(
    "ls to show the consult as the human's question",
    () => f.run("ls", "--json").json.workers[0].state === "needs_input",
    60_000,
    500,
  );
  assert.deepEqual(f.sql("SELECT audience, escalation FROM questions"), [
    { audience: "human", escalation: "your pi session's model did not answer within 5 s" },
  ]);
  assert.deepEqual(f.sql("SELECT actor, verb FROM decisions"), [{ actor: "system", verb: "escalate" }]);
  const fromWorker = f.as("w1", "ls", "--json");
  assert.equal(fromWorker.code, 0, "a worker may read; it escalates nothing");
});

test("Combine through the CLI: the card offers it with the dry merge's count under the unchanged --json contract, and the resolution ends in a promotion", {
  timeout: 240_000,
}, async (t) => {
  const f = fixture(t);
  await spawnCommand(f, "w1", "sleep 600", "raise the limit");
  await spawnCommand(f, "w2", "sleep 600", "lower the limit");
  for (const [w, v] of [
    ["w1", "line 5 = 100"],
    ["w2", "line 5 = 1"],
  ] as const) {
    writeFileSync(join(f.home, "fleet", w, "workspace", "src", "app.txt"), APP.replace("line 5\n", `${v}\n`));
    const body = join(f.home, `${w}-body.md`);
    writeFileSync(body, `I set ${v}.\n`);
    const done = f.as(
      w,
      "worker",
      "done",
      "--outcome",
      "completed",
      "--summary",
      `set ${v}`,
      "--body-file",
      body,
      "--json",
    );
    assert.equal(done.code, 0, done.stderr + done.stdout);
  }
  const card = f.run("verdict", "w1", "--json");
  assert.deepEqual(Object.keys(card.json).sort(), CARD_KEYS);
  assert.ok(card.json.actions.includes("combine w2"), JSON.stringify(card.json.actions));
  assert.ok(
    card.json.warnings.some(
      (w: { kind: string; text: string }) =>
        w.kind === "combine" && w.text === "Combine with w2 · lower the limit · 1 conflict in 1 file",
    ),
  );

  const started = f.run("combine", "w1", "w2", "--json");
  assert.equal(started.code, 0, started.stderr);
  assert.equal(started.json.outcome, "conflicts");
  assert.deepEqual(started.json.contested, [{ path: "src/app.txt", kind: "content", conflicts: 1 }]);
  const scratchFile = join(started.json.scratch, "files", "src", "app.txt");
  assert.match(readFileSync(scratchFile, "utf8"), /^<<<<<<< w1 · raise the limit$/m);
  const refused = f.run("combine", "--continue", "--json");
  assert.equal(refused.code, 1);
  assert.equal(refused.json.error.code, "conflict-markers");
  writeFileSync(scratchFile, APP.replace("line 5\n", "line 5 = 10\n"));
  const frozen = f.run("combine", "--continue", "--json");
  assert.equal(frozen.code, 0, frozen.stderr);
  assert.equal(frozen.json.deliverable.ref, "combined:w1+w2:1");
  assert.equal(existsSync(started.json.scratch), false);

  const combinedCard = f.run("verdict", "combined:w1+w2:1", "--json");
  assert.deepEqual(Object.keys(combinedCard.json).sort(), CARD_KEYS);
  assert.equal(combinedCard.json.worker, "w1+w2");
  const promoted = f.run("promote", "combined:w1+w2:1", "--approve", "--yes", "--json");
  assert.equal(promoted.code, 0, promoted.stderr);
  assert.equal(readFileSync(join(f.repo, "src", "app.txt"), "utf8"), APP.replace("line 5\n", "line 5 = 10\n"));
  assert.deepEqual(
    f.run("journal", "--json").json.entries.map((e: { from: string; ref: string }) => [e.from, e.ref]),
    [["w1 + w2", "combined:w1+w2:1"]],
  );
  const verbs = f
    .sql<{ verb: string; worker: string }>("SELECT verb, worker FROM decisions ORDER BY seq")
    .map((d) => `${d.verb}:${d.worker}`);
  assert.deepEqual(
    verbs,
    ["combine-conflicts:w1", "combine-conflicts:w2", "combine:w1", "combine:w2", "approve:w1+w2", "promote:w1+w2"],
    "every outcome is a decision row",
  );
});
