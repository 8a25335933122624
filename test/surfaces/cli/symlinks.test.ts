// Symlinks in the Docket home are listed as unreadable and never followed: not by store scans, reads, saves or
// deletes, not by worker sidecars, not by legacy bundles. Everything runs through the real CLI.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docketWith, doneArgs } from "../../support/docket-cli.js";
import { identityEnv, isolatedWorker } from "../../support/protocol-worker.js";
import { writeLegacyBundles } from "../../support/stored.js";
import { tempDir } from "../../support/temp.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";
import { homeLayout } from "../../../src/files/home.js";

type T = { after(fn: () => void): void };

function ground(t: T) {
  const home = tempDir(t, "docket-links-home-");
  const outside = tempDir(t, "docket-links-outside-");
  const run = (args: string[], extra: Record<string, string> = {}, input?: string) =>
    docketWith({ env: cliEnv({ DOCKET_HOME: home, ...extra }), cwd: home, input }, ...args);
  return { home, outside, run };
}

/** What a directory holds, byte for byte, so "nothing outside changed" is one comparison. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((n) => [n, readFileSync(join(dir, n), "utf8")]),
  );
}

test("deleting deliverable:linked:1 whose directory links outside the home deletes nothing and names the link", (t) => {
  const { home, outside, run } = ground(t);
  writeFileSync(join(outside, "v1.json"), '{"precious": true}\n');
  const before = snapshot(outside);
  mkdirSync(join(home, "deliverables"), { recursive: true });
  symlinkSync(outside, join(home, "deliverables", "linked"));
  const r = run(["deliverable", "delete", "deliverable:linked:1", "--yes", "--json"]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.json.error.code, "store-symlink");
  assert.match(
    r.json.error.message,
    /deliverables\/linked is a symbolic link; Docket never follows links in the store/,
  );
  assert.deepEqual(snapshot(outside), before, "the outside directory is untouched");
  const list = run(["deliverables", "--json"]);
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(list.json.unsupported, [{ path: join(home, "deliverables", "linked"), reason: "symlink" }]);
  assert.deepEqual(readdirSync(outside), ["v1.json"], "listing and deleting left no lock or temp file outside");
});

test("a version file that links outside is listed as unreadable and is never loaded or deleted", (t) => {
  const { home, outside, run } = ground(t);
  writeFileSync(join(home, "body.md"), "a human note\n");
  const saved = run(["save", "--author", "body.md", "--outcome", "findings", "--json"]);
  assert.equal(saved.code, 0, saved.stderr);
  const id: string = saved.json.id;
  const dir = join(home, "deliverables", id);
  writeFileSync(
    join(outside, "target.json"),
    readFileSync(join(dir, "v1.json"), "utf8").replace(`"version": 1`, `"version": 2`).replaceAll(`${id}:1`, `${id}:2`),
  );
  const before = snapshot(outside);
  symlinkSync(join(outside, "target.json"), join(dir, "v2.json"));
  const list = run(["deliverables", "--reindex", "--json"]);
  assert.deepEqual(list.json.unsupported, [{ path: join(dir, "v2.json"), reason: "symlink" }]);
  assert.deepEqual(
    list.json.deliverables.map((d: { ref: string }) => d.ref),
    [`deliverable:${id}:1`],
  );
  const load = run(["load", `deliverable:${id}:2`, "--json"]);
  assert.equal(load.code, 1);
  assert.match(load.json.error.message, /symbolic link/);
  const del = run(["deliverable", "delete", `deliverable:${id}:2`, "--yes", "--json"]);
  assert.equal(del.json.error.code, "store-symlink");
  assert.deepEqual(snapshot(outside), before);
  assert.deepEqual(readdirSync(dir).sort(), ["v1.json", "v2.json"], "the link itself stays for the human to remove");
});

test("a worker whose deliverables directory links outside can neither publish into it nor be reviewed from it", (t) => {
  const { ctx, home } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const outside = tempDir(t, "docket-links-outside-");
  const env = cliEnv({ DOCKET_HOME: home, ...identityEnv(w) });
  const first = docketWith({ env, cwd: w.workspace, input: "first body" }, ...doneArgs("one"), "--json");
  assert.equal(first.code, 0, first.stderr);
  const sidecars = join(homeLayout(home).workerDir(w.worker), "deliverables");
  renameSync(sidecars, join(outside, "moved"));
  symlinkSync(join(outside, "moved"), sidecars);
  const before = snapshot(join(outside, "moved"));
  const report = docketWith({ env: cliEnv({ DOCKET_HOME: home }), cwd: home }, "report", w.worker, "--json");
  assert.equal(report.code, 1);
  assert.equal(report.json.error.code, "deliverable-invalid");
  assert.match(report.json.error.message, /is a symbolic link; Docket never follows links inside its home/);
  const second = docketWith({ env, cwd: w.workspace, input: "second body" }, ...doneArgs("two"), "--json");
  assert.equal(second.code, 1);
  assert.equal(second.json.error.code, "home-symlink");
  assert.deepEqual(snapshot(join(outside, "moved")), before, "nothing was written through the link");
});

test("legacy bundles behind links are listed as unreadable and never read or deleted", (t) => {
  const { home, outside, run } = ground(t);
  const layout = homeLayout(home);
  writeLegacyBundles(layout);
  writeFileSync(join(outside, "secret.md"), "# not a bundle\n");
  symlinkSync(join(outside, "secret.md"), join(home, "checkpoints", "linked.md"));
  const list = run(["deliverables", "--json"]);
  assert.deepEqual(
    list.json.legacy.map((b: { ref: string }) => b.ref),
    ["checkpoint:ckpt-auth"],
  );
  assert.deepEqual(list.json.unsupported, [{ path: join(home, "checkpoints", "linked.md"), reason: "symlink" }]);
  const preview = run(["preview", "checkpoint:linked", "--json"]);
  assert.equal(preview.code, 1);
  const del = run(["deliverable", "delete", "checkpoint:linked", "--yes", "--json"]);
  assert.equal(del.code, 1);
  assert.equal(readFileSync(join(outside, "secret.md"), "utf8"), "# not a bundle\n");

  const elsewhere = tempDir(t, "docket-links-checkpoints-");
  renameSync(join(home, "checkpoints"), join(elsewhere, "checkpoints"));
  symlinkSync(join(elsewhere, "checkpoints"), join(home, "checkpoints"));
  const behind = run(["deliverables", "--json"]);
  assert.equal(behind.json.legacy, undefined, "no bundle is read through a linked checkpoints directory");
  assert.deepEqual(behind.json.unsupported, [{ path: join(home, "checkpoints"), reason: "symlink" }]);
  const gone = run(["deliverable", "delete", "checkpoint:ckpt-auth", "--yes", "--json"]);
  assert.equal(gone.code, 1);
  assert.ok(
    readdirSync(join(elsewhere, "checkpoints")).includes("ckpt-auth.md"),
    "the bundle behind the link is still there",
  );
});

test("deleting a worker whose directory links outside the home removes nothing there and names the link", (t) => {
  const { ctx, home } = workLedger(t);
  const { worker } = addWorker(ctx);
  const outside = tempDir(t, "docket-links-outside-");
  mkdirSync(join(outside, "session"));
  writeFileSync(join(outside, "session", "keep.jsonl"), "someone else's session\n");
  mkdirSync(join(home, "fleet"), { recursive: true });
  symlinkSync(outside, join(home, "fleet", worker));
  const r = docketWith({ env: cliEnv({ DOCKET_HOME: home }), cwd: home }, "delete", worker, "--yes", "--json");
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.equal(r.json.error.code, "home-symlink");
  assert.equal(
    r.json.error.message,
    `${join(home, "fleet", worker)} is a symbolic link; Docket never follows links or writes through them inside its home`,
  );
  assert.deepEqual(snapshot(join(outside, "session")), { "keep.jsonl": "someone else's session\n" });
  assert.equal(
    (ctx.db.prepare("SELECT deleted_at FROM workers WHERE id = ?").get(worker) as { deleted_at: string | null })
      .deleted_at,
    null,
  );
});
