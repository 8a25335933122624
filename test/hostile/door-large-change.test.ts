// A contained worker publishes a huge change set (docs/decisions/door.md; before the threaded capture, a 300 MB done
// held the door's one event loop for 25-30 s): the capture runs in a thread, so another worker's heartbeat is served
// while git still reads the workspace, and a change set over the cap is refused `change-set-too-large` with nothing
// frozen; a cap set lower refuses sooner.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_DOOR_LIMITS } from "../../src/domain/door-limits.js";
import { containedWorker, doorGround, doorPid, honestHeartbeat } from "../support/door-abuse.js";
import { gitChildren } from "../support/proc.js";
import { waitFor } from "../support/wait.js";
import { existsSync } from "node:fs";

const deliverables = (home: string, worker: string): string[] => {
  const dir = join(home, "fleet", worker, "deliverables");
  return existsSync(dir) ? readdirSync(dir) : [];
};

test("a huge change set is captured off the door's loop: another worker's heartbeat lands while git runs; over the cap it is refused change-set-too-large and nothing is frozen", {
  timeout: 300_000,
}, async (t) => {
  const g = doorGround(t);
  const honest = await containedWorker(g, "exec sleep 600", "honest");
  const attacker = await containedWorker(
    g,
    'head -c 150000000 /dev/urandom > big.bin && echo made > "$TMPDIR/made"; exec sleep 600',
    "huge",
  );
  await waitFor("the attacker's 150 MB file", () => existsSync(join(attacker.scratch, "made")), 120_000, 200);
  await honestHeartbeat(honest);
  const pid = doorPid(g.home)!;

  let doneSettled = false;
  const done = attacker
    .call(["worker", "done", "--outcome", "completed", "--summary", "huge", "--call-id", "big", "--json"])
    .finally(() => (doneSettled = true));
  await waitFor("the door's capture running git", () => doneSettled || gitChildren(pid).length > 0, 120_000, 20);
  assert.equal(doneSettled, false, "the capture was still running");
  await honestHeartbeat(honest);
  assert.equal(doneSettled, false, "the honest heartbeat was answered while the huge capture still ran");

  const refused = await done;
  assert.equal(refused.code, 1, refused.stdout);
  assert.equal(refused.json.error.code, "change-set-too-large", refused.stdout);
  assert.match(refused.json.error.message, new RegExp(`over ${DEFAULT_DOOR_LIMITS.changeSetBytes} bytes`));
  assert.match(refused.json.error.hint, /door\.maxChangeSetBytes/);
  assert.deepEqual(deliverables(g.home, attacker.id), [], "nothing was frozen");
  assert.notEqual(g.human("show", attacker.id, "--json").json.state, "ready");
  await honestHeartbeat(honest);
  assert.equal(doorPid(g.home), pid, "the same door serves on");
});

test("door.maxChangeSetBytes in the user config lowers the cap: a 2 MB change is refused with that limit; under it a change lands", {
  timeout: 300_000,
}, async (t) => {
  const limit = 1024 * 1024;
  const g = doorGround(t, { door: { maxChangeSetBytes: limit } });
  const w = await containedWorker(
    g,
    'seq 1 300000 > numbers.txt && echo made > "$TMPDIR/made"; exec sleep 600',
    "two megabytes",
  );
  await waitFor("the worker's file", () => existsSync(join(w.scratch, "made")), 120_000, 200);
  const refused = await w.call(["worker", "done", "--outcome", "completed", "--summary", "s", "--json"]);
  assert.equal(refused.code, 1, refused.stdout);
  assert.equal(refused.json.error.code, "change-set-too-large");
  assert.match(refused.json.error.message, /over 1048576 bytes \(1 MiB\) as a patch/);
  assert.deepEqual(deliverables(g.home, w.id), []);

  const small = await containedWorker(g, "echo small > small.txt; exec sleep 600", "small");
  await waitFor("the small file", () => existsSync(join(small.workspace, "small.txt")), 60_000, 100);
  const landed = await small.call(["worker", "done", "--outcome", "completed", "--summary", "s", "--json"]);
  assert.equal(landed.code, 0, landed.stdout + landed.stderr);
  assert.equal(landed.json.deliverable.version, 1);
});
