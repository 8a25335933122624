// With only the door running (no Docket command after spawn), a real pi worker whose scripted usage crosses a budget of
// a cent is stopped by the door's own timer; the 80 % and the stop notifications each reach notify.command once.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { notifyReceiver } from "../../support/notify-receiver.js";
import { cliEnv, docket } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { scriptedPi, centBudgetSpawn } from "../../support/scripted-pi.js";
import { waitFor } from "../../support/wait.js";

/** The private server's windows; none when the server ended with its last window. */
function tmuxWindows(socket: string): string[] {
  const r = spawnSync("tmux", ["-L", socket, "list-windows", "-a", "-F", "#{window_id}"], { encoding: "utf8" });
  if (r.status !== 0 && /no server running/.test(r.stderr)) return [];
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split("\n").filter(Boolean);
}

test("the door stops a worker at its budget with no Docket command running, and the 80 % notice goes out once", {
  timeout: 180_000,
}, async (t) => {
  const pi = scriptedPi(t);
  const repo = join(pi.root, "repo");
  mkdirSync(repo);
  gitRepo(repo, { "a.txt": "one\n" });
  const received = notifyReceiver(pi.vars.DOCKET_HOME!, pi.root);
  const spawned = docket(
    { env: cliEnv(pi.vars), cwd: repo },
    ...centBudgetSpawn(pi, { text: "Still going.", delayMs: 60_000 }),
  );
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);

  // From here on only the ledger file is read (a read-only SQLite connection is no Docket command).
  const row = (sql: string, ...params: unknown[]): any => {
    const db = new Database(join(pi.vars.DOCKET_HOME!, "ledger.sqlite"), { readonly: true });
    try {
      return db.prepare(sql).get(...params);
    } finally {
      db.close();
    }
  };
  const stopped = await waitFor(
    "w1 stopped at its budget",
    () => {
      const r = row(
        "SELECT budget_warned_at, budget_stopped_at, exited, last_error, window_id FROM workers WHERE id = 'w1'",
      );
      return r?.budget_stopped_at ? r : undefined;
    },
    120_000,
    300,
  );
  assert.ok(stopped.budget_warned_at, "the 80 % step was marked first");
  assert.equal(stopped.exited, 1);
  assert.match(stopped.last_error, /^stopped by Docket: spent \$0\.01 of its \$0\.01 budget/);
  assert.ok(stopped.window_id);
  // The stop is committed first, then the window is closed.
  await waitFor(
    `the worker's window ${stopped.window_id} closed`,
    () => !tmuxWindows(pi.vars.DOCKET_TMUX_SOCKET!).includes(stopped.window_id) || undefined,
    10_000,
    100,
  );

  const lines = () =>
    (existsSync(received) ? readFileSync(received, "utf8") : "")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event: string; text: string });
  await waitFor(
    "both budget events at the command sink",
    () => lines().filter((e) => e.event === "budget").length >= 2 || undefined,
    30_000,
    200,
  );
  const sentBy = row(
    "SELECT group_concat(DISTINCT substr(sent_by, 1, instr(sent_by, ':'))) AS who FROM notifications WHERE kind = 'budget'",
  ).who;
  assert.equal(sentBy, "door:", "the door sent them, not a Docket command");
  // Further door rounds send nothing again.
  const rounds = row("SELECT COUNT(*) AS n FROM notifications WHERE kind = 'budget'").n;
  await new Promise((r) => setTimeout(r, 2_500));
  const budget = lines().filter((e) => e.event === "budget");
  assert.equal(rounds, 2);
  assert.equal(budget.length, 2, JSON.stringify(budget));
  assert.equal(budget.filter((e) => /\(80 % reached\)$/.test(e.text)).length, 1);
  assert.equal(budget.filter((e) => /^stopped by Docket/.test(e.text)).length, 1);
});
