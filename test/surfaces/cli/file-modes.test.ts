// Docket's home is private whatever the umask: the home and every directory Docket makes are 0700, and the ledger
// (with its WAL and SHM), task and status files, sidecars, events and stored records are 0600.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { cliGround } from "../../support/cli-workers.js";
import { docketWith } from "../../support/docket-cli.js";
import { waitFor } from "../../support/wait.js";
import { workerIdentityEnv } from "../../support/launch-env.js";

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

test("under umask 000 every directory Docket creates is 0700 and every file it writes is 0600", async (t) => {
  const { root, repo, home, env } = cliGround(t, { prefix: "docket-modes-", homeDir: join("home", "docket") });
  const run = (args: string[], extra: Record<string, string> = {}, input?: string) =>
    docketWith({ env: { ...env, ...extra }, cwd: repo, umask: "000", input }, ...args, "--json");

  const spawned = run(["spawn", "--agent", "command", "--cmd", "sleep 60", "--yes", "look", "around"]);
  assert.equal(spawned.code, 0, spawned.stderr);
  const worker: string = spawned.json.worker;
  const dir = join(home, "fleet", worker);
  await waitFor("the worker's status projection", () => statSync(join(dir, "status.json"), { throwIfNoEntry: false }));
  const identity = await waitFor(
    "the worker's launch env file",
    () => existsSync(join(dir, "launch.env")) && workerIdentityEnv(home, worker),
  );
  const done = run(["worker", "done", "--outcome", "findings", "--summary", "seen"], identity, "what I saw\n");
  assert.equal(done.code, 0, done.stderr + done.stdout);
  writeFileSync(join(root, "note.md"), "a note\n");
  const saved = run(["save", "--author", join(root, "note.md"), "--outcome", "findings"]);
  assert.equal(saved.code, 0, saved.stderr);

  const dirs = [
    join(root, "home"),
    home,
    join(home, "fleet"),
    dir,
    join(dir, "session"),
    join(dir, "deliverables"),
    join(home, "deliverables"),
    join(home, "deliverables", saved.json.id),
  ];
  const files = [
    join(home, "ledger.sqlite"),
    join(dir, "task.md"),
    join(dir, "status.json"),
    join(dir, "deliverables", "v1.json"),
    join(home, "deliverables", saved.json.id, "v1.json"),
  ];
  assert.deepEqual(
    Object.fromEntries(dirs.map((d) => [d, modeOf(d)])),
    Object.fromEntries(dirs.map((d) => [d, "700"])),
  );
  assert.deepEqual(
    Object.fromEntries(files.map((f) => [f, modeOf(f)])),
    Object.fromEntries(files.map((f) => [f, "600"])),
  );

  // The WAL and SHM exist while a connection is open; SQLite gives them the ledger's own mode.
  const db = new Database(join(home, "ledger.sqlite"));
  try {
    db.prepare("SELECT count(*) FROM workers").get();
    assert.deepEqual(
      [modeOf(join(home, "ledger.sqlite-wal")), modeOf(join(home, "ledger.sqlite-shm"))],
      ["600", "600"],
    );
  } finally {
    db.close();
  }
});
