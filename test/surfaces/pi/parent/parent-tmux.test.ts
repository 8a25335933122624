// The interactive pi parent in a private tmux server: the human types /docket commands (send-keys -l + Enter) and
// reads the answers, the notifications and the dock on the screen (capture-pane).

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parentFixture } from "../../../support/pi-parent.js";
import { startParentPane } from "../../../support/pi-screen.js";
import { waitFor } from "../../../support/wait.js";

test("a human types /docket commands into interactive pi and sees the answer, the dock and a worker's question", async (t) => {
  const p = parentFixture(t);
  const conf = join(p.home, "..", "tmux.conf");
  writeFileSync(conf, "set -g extended-keys on\nset -g history-limit 5000\n");
  startParentPane(p.tmux, { conf, cwd: p.repo, env: p.env, columns: 200, rows: 50 });
  const screen = () => p.tmux.tmux("capture-pane", "-p", "-J", "-t", "parent");
  const type = (text: string) => {
    p.tmux.tmux("send-keys", "-t", "parent", "-l", text);
    p.tmux.tmux("send-keys", "-t", "parent", "Enter");
  };
  await waitFor("pi's editor", () => screen().includes("scripted"), 60_000, 200);

  type("/docket item add typed in tmux");
  const item = await waitFor(
    "the item in the ledger",
    () => p.ledger((db) => db.prepare("SELECT id, text FROM items").get() as { id: string; text: string } | undefined),
    30_000,
  );
  assert.deepEqual({ ...item }, { id: "t1", text: "typed in tmux" });
  await waitFor("the command's answer on screen", () => screen().includes("t1 added (todo, revision 1)"), 15_000);

  // The second command is typed the moment pi has taken the first (its editor is empty again), with no pause that
  // would let the first finish: pi drops input submitted while a command handler is busy, so the parent role hands
  // the editor back at once and runs the command on its own.
  p.tmux.tmux("send-keys", "-t", "parent", "-l", "/docket spawn --agent command --cmd 'sleep 600' --yes tmux worker");
  await waitFor("the spawn command in pi's editor", () => screen().includes("--yes tmux worker"), 30_000, 10);
  p.tmux.tmux("send-keys", "-t", "parent", "Enter");
  await waitFor(
    "pi to take the spawn command from its editor",
    () => !screen().includes("--yes tmux worker"),
    30_000,
    10,
  );
  type("/docket item add typed right after");
  await waitFor(
    "the second command's item",
    () => p.ledger((db) => db.prepare("SELECT id FROM items WHERE text = 'typed right after'").get()),
    30_000,
  );
  const dockLine = await waitFor(
    "the dock line for w1",
    () =>
      screen()
        .split("\n")
        .find((l) => l.includes("w1·default") && l.includes("tmux worker")),
    30_000,
  );
  assert.match(
    dockLine,
    /(◌ w1·default starting|● w1·default thinking) · tmux worker · (\$\d+\.\d+|cost unknown) · \d+s/,
    "task, cost so far, age",
  );
  await waitFor("the footer status", () => screen().includes("docket · 1 running"), 15_000);

  const asked = p.asWorker("w1", "worker", "wait", "--question", "Which branch should I use?");
  assert.equal(asked.code, 0, asked.stderr);
  await waitFor(
    "the question notification on screen",
    () => screen().includes("docket · w1 asks: Which branch should I use?"),
    15_000,
  );
  await waitFor(
    "the dock shows the question",
    () => screen().includes("? w1·default needs input · tmux worker · 1 question"),
    15_000,
  );
  assert.equal(
    p.ledger(
      (db) =>
        (db.prepare("SELECT count(*) AS n FROM notifications WHERE delivered_at IS NULL").get() as { n: number }).n,
    ),
    0,
  );

  p.tmux.tmux("send-keys", "-t", "parent", "C-d");
  await waitFor(
    "pi to exit",
    () => {
      try {
        return p.tmux.tmux("list-panes", "-t", "parent", "-F", "#{pane_dead}").trim() === "1" || undefined;
      } catch {
        return true; // the session is gone with its only pane: pi exited
      }
    },
    15_000,
  );
});
