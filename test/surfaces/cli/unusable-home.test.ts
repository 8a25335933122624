// Corrupt or unusable state gets a named refusal that says what to do, never `internal-error`, and changes nothing:
// a damaged ledger, a home that is a file or too long, a read-only home, a full disk, out-of-range numbers.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { openEngine } from "../../../src/engine/open.js";
import { done } from "../../../src/engine/protocol/protocol.js";
import { migrate } from "../../../src/ledger/core/migrate.js";
import { MIGRATIONS } from "../../../src/ledger/core/migrations/index.js";
import { cliEnv, docketWith, type CliRun } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { remountReadOnly, tmpfs } from "../../support/mounts.js";
import { isolatedWorker } from "../../support/protocol-worker.js";
import { tempDir } from "../../support/temp.js";

type T = { after(fn: () => void): void };

const run = (home: string, cwd: string, ...args: string[]): CliRun =>
  docketWith({ env: cliEnv({ DOCKET_HOME: home }), cwd }, ...args, "--json");

function refused(r: CliRun, code: string): { code: string; message: string; hint?: string } {
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.json?.error?.code, code, r.stdout + r.stderr);
  return r.json.error;
}

/** A home with one item recorded through the CLI (the ledger then has real pages to damage). */
function homeWithItem(t: T): string {
  const home = tempDir(t, "docket-unusable-");
  assert.equal(run(home, home, "item", "add", "first item").code, 0);
  return home;
}

test("a truncated ledger is refused as ledger-corrupt by ls and by writes, naming quick_check's finding, and is left as it was", (t) => {
  const home = homeWithItem(t);
  const ledger = join(home, "ledger.sqlite");
  const bytes = readFileSync(ledger);
  writeFileSync(ledger, bytes.subarray(0, bytes.length / 2));
  const damaged = readFileSync(ledger);
  for (const args of [["ls"], ["item", "ls"], ["item", "add", "second"]]) {
    const e = refused(run(home, home, ...args), "ledger-corrupt");
    assert.match(e.message, new RegExp(`^the ledger ${ledger} is damaged \\(.+\\); nothing was changed$`));
    assert.match(e.hint ?? "", /mv .*ledger\.sqlite .*ledger\.sqlite\.damaged.*docket doctor/);
  }
  assert.deepEqual(readFileSync(ledger), damaged, "the damaged file is not touched");
});

test("a ledger that is not SQLite at all is refused as ledger-corrupt, not as an internal error", (t) => {
  const home = tempDir(t, "docket-unusable-");
  writeFileSync(join(home, "ledger.sqlite"), "this is not a database\n".repeat(300));
  for (const args of [["ls"], ["verdict"], ["item", "add", "x"]]) {
    assert.match(refused(run(home, home, ...args), "ledger-corrupt").message, /is damaged \(file is not a database\)/);
  }
});

test("a DOCKET_HOME that is a file, under a file, or too long for SQLite is refused as home-unusable with what to do", (t) => {
  const dir = tempDir(t, "docket-unusable-");
  writeFileSync(join(dir, "plain"), "x");
  const long = join(dir, ...Array.from({ length: 4 }, () => "d".repeat(140)));
  for (const [home, why] of [
    [join(dir, "plain"), "is a file, not a directory"],
    [join(dir, "plain", "sub"), "has a file where a directory should be on its path"],
    [long, "is too long"],
  ] as const) {
    const e = refused(run(home, dir, "ls"), "home-unusable");
    assert.ok(e.message.startsWith(`the Docket home ${home} ${why}`), e.message);
    assert.equal(e.hint, "point DOCKET_HOME at a directory you own, or unset it for the default home");
  }
  assert.equal(existsSync(long), false, "nothing was created on the way");
});

test("a read-only home answers ls, verdict, log, report, diff and deliverables without migrating, and refuses writes", (t) => {
  const fs = tmpfs(t, 8192);
  if ("skip" in fs) return t.skip(fs.skip);
  const home = join(fs.dir, "home");
  const project = gitRepo(tempDir(t, "docket-ro-project-"), { "a.txt": "one\n" });
  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: project });
  const w = isolatedWorker(t, ctx, { project });
  writeFileSync(join(w.workspace, "a.txt"), "two\n");
  done(
    ctx,
    { worker: w.worker, generation: 1, runToken: w.runToken },
    { callId: "c1", body: "changed a.txt\n", outcome: "completed", summary: "a is two" },
  );
  ctx.close();
  writeFileSync(join(fs.dir, "note.md"), "a stored note\n");
  assert.equal(run(home, project, "save", "--author", join(fs.dir, "note.md"), "--outcome", "findings").code, 0);
  remountReadOnly(fs.dir);

  const ls = run(home, project, "ls");
  assert.equal(ls.code, 0, ls.stderr);
  assert.deepEqual(
    ls.json.workers.map((x: { worker: string; state: string }) => [x.worker, x.state]),
    [[w.worker, "ready"]],
  );
  const verdict = run(home, project, "verdict");
  assert.equal(verdict.code, 0, verdict.stderr);
  assert.match(verdict.stdout, new RegExp(`worker-deliverable:${w.worker}:1`));
  assert.equal(run(home, project, "log").code, 0);
  const report = run(home, project, "report", w.worker);
  assert.equal(report.json.body, "changed a.txt\n");
  assert.match(run(home, project, "diff", w.worker).json.patch, /^\+two$/m);
  const list = run(home, project, "deliverables");
  assert.equal(list.code, 0, list.stderr);
  assert.equal(list.json.deliverables.length, 1);

  const e = refused(run(home, project, "item", "add", "not now"), "home-read-only");
  assert.equal(e.message, `the Docket home ${home} is read-only, so nothing can be recorded`);
  assert.match(e.hint ?? "", /ls, verdict, log, report, diff and deliverables still work/);
  assert.deepEqual(readdirSync(home).sort(), ["deliverables", "fleet", "ledger.sqlite"], "no -wal or -shm was created");
});

test("a read-only home whose ledger this build would have to migrate is refused with what to do", (t) => {
  const fs = tmpfs(t, 4096);
  if ("skip" in fs) return t.skip(fs.skip);
  const home = join(fs.dir, "home");
  mkdirSync(home);
  const db = new Database(join(home, "ledger.sqlite"));
  migrate(db, MIGRATIONS.slice(0, 1));
  db.close();
  remountReadOnly(fs.dir);
  for (const args of [["ls"], ["log"]]) {
    const e = refused(run(home, home, ...args), "ledger-needs-migration");
    assert.match(
      e.message,
      /needs migration 3 \(decisions\), 4 \(store-index\)(, \d+ \([a-z-]+\))* before this build can read it, and its home is read-only$/,
    );
    assert.match(e.hint ?? "", /write access/);
  }
});

test("a full disk is refused as disk-full and records nothing; once space is free the same command works", (t) => {
  const fs = tmpfs(t, 1024);
  if ("skip" in fs) return t.skip(fs.skip);
  const home = join(fs.dir, "home");
  assert.equal(run(home, fs.dir, "item", "add", "first").code, 0);
  const filler = join(fs.dir, "filler");
  const fd = openSync(filler, "w");
  try {
    const block = Buffer.alloc(64 * 1024);
    for (;;) writeSync(fd, block);
  } catch (error) {
    assert.equal((error as NodeJS.ErrnoException).code, "ENOSPC");
  } finally {
    closeSync(fd);
  }
  for (const args of [
    ["item", "add", "second"],
    ["save", "--author", "-", "--outcome", "findings"],
  ]) {
    const r = docketWith({ env: cliEnv({ DOCKET_HOME: home }), cwd: fs.dir, input: "a note\n" }, ...args, "--json");
    const e = refused(r, "disk-full");
    assert.match(
      e.message,
      new RegExp(`^the disk holding ${home} is full \\(.+\\); what did not fit was not recorded$`),
    );
    assert.equal(e.hint, "free some space, then run the command again");
  }
  writeFileSync(filler, "");
  const items = run(home, fs.dir, "item", "ls");
  assert.deepEqual(
    items.json.items.map((i: { text: string }) => i.text),
    ["first"],
  );
  assert.equal(existsSync(join(home, "deliverables")), false, "no stored record and no temp file");
});

test("log --limit and --since beyond what fits are usage errors (exit 2), not internal errors", (t) => {
  const home = tempDir(t, "docket-unusable-");
  const limit = run(home, home, "log", "--limit", "99999999999999999999");
  assert.equal(limit.code, 2, limit.stdout);
  assert.match(limit.json.error.message, /^--limit must be at most 9007199254740991; got "99999999999999999999"$/);
  const since = run(home, home, "log", "--since", "99999999999999999999d");
  assert.equal(since.code, 2, since.stdout);
  assert.deepEqual(since.json.error, {
    code: "bad-duration",
    message: '--since takes at most 36500d (100 years); got "99999999999999999999d"',
  });
});
