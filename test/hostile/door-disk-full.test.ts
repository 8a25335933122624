// A full disk under the home is an answer, not a crash: a contained worker's done on a full tmpfs home gets
// `disk-full` with what to do, nothing half is left (no version, no ledger row), the door stays up, and once space is
// freed the same call id lands exactly once.

import { test } from "node:test";
import assert from "node:assert/strict";
import { openSync, readdirSync, readFileSync, rmSync, writeSync, closeSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertExit } from "../support/docket-cli.js";
import { containedWorker, doorGround, doorPid, honestHeartbeat } from "../support/door-abuse.js";
import { tmpfs } from "../support/mounts.js";
import { ledgerRows } from "../support/snapshot.js";
import { waitFor } from "../support/wait.js";

/** The worker's one `done`, always with call id c1 (the retry after space is freed is the same call). */
const DONE_C1 = ["worker", "done", "--outcome", "completed", "--summary", "s", "--call-id", "c1"];

/** Writes zeros into `path` until the file system refuses with ENOSPC. */
function fillUp(path: string): void {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}

/** Every file under `dir`, relative. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true }).map(String).sort();
  } catch {
    return [];
  }
}

test("done on a full disk answers disk-full (what to free), writes nothing half and keeps the door up; after space is freed the same call id lands once", {
  timeout: 300_000,
}, async (t) => {
  const fs = tmpfs(t, 96 * 1024);
  if ("skip" in fs) return void t.skip(fs.skip);
  const g = doorGround(t, {}, join(fs.dir, "home"));
  const w = await containedWorker(g, "echo changed > src/a.ts; exec sleep 600", "edit a.ts");
  const honest = await containedWorker(g, "exec sleep 600", "honest");
  await waitFor("the worker's edit", () => readFileSync(join(w.workspace, "src", "a.ts"), "utf8") === "changed\n");
  await honestHeartbeat(honest);
  const pid = doorPid(g.home);
  assert.ok(pid, "the door runs");
  const deliverables = join(g.home, "fleet", w.id, "deliverables");
  const filler = join(fs.dir, "filler");
  const workerRow = () => ledgerRows(join(g.home, "ledger.sqlite")).workers?.find((r: any) => r.id === w.id) as any;
  fillUp(filler);

  const refused = await w.call([...DONE_C1, "--json"]);
  assertExit(refused, 1);
  assert.equal(refused.json.error.code, "disk-full", refused.stdout);
  assert.match(refused.json.error.message, new RegExp(`the disk holding ${fs.dir}.* is full`));
  assert.match(refused.json.error.hint, /free space/);
  assert.match(refused.json.error.hint, /same call id/);
  const plain = await w.call(DONE_C1);
  assert.equal(plain.code, 1);
  assert.match(plain.stderr, /disk .* is full.*same call id/s, "the agent reads the refusal and its fix");

  assert.equal(doorPid(g.home), pid, "the door is still the same process");
  assert.deepEqual(
    filesUnder(deliverables).filter((f) => !f.startsWith(".")),
    [],
    "no version was claimed",
  );
  assert.deepEqual(
    filesUnder(deliverables).filter((f) => f.endsWith(".tmp")),
    [],
    "no half-written temp is left",
  );
  const before = workerRow();
  assert.equal(before.deliverable_version, null, "the ledger points at no version");
  assert.notEqual(before.state, "ready");

  rmSync(filler);
  writeFileSync(join(fs.dir, "marker"), "space again\n");
  await honestHeartbeat(honest);
  const landed = await w.call([...DONE_C1, "--json"]);
  assertExit(landed, 0);
  assert.equal(landed.json.deliverable.version, 1);
  const again = await w.call([...DONE_C1, "--json"]);
  assertExit(again, 0);
  assert.deepEqual(again.json.deliverable, landed.json.deliverable, "the same call id is the same version");
  assert.deepEqual(filesUnder(deliverables), ["v1.json"], "exactly one version");
  const after = workerRow();
  assert.equal(after.deliverable_version, 1);
  assert.equal(after.state, "ready");
  assert.equal(doorPid(g.home), pid, "the same door served it all");
});
