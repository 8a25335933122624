// A contained worker floods its own door socket with connections (docs/decisions/door.md; ~20,000 idle ones once
// exhausted the door's file descriptors): the door holds at most the worker's share open, closes the idle rest, and
// another worker's heartbeats keep landing throughout.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_DOOR_LIMITS } from "../../src/domain/door-limits.js";
import {
  containedWorker,
  doorGround,
  doorPid,
  honestHeartbeat,
  nodeScript,
  scratchLine,
} from "../support/door-abuse.js";
import { waitFor } from "../support/wait.js";

/** Sockets the door process holds open now. */
function socketFds(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")) n++;
    } catch {
      // closed while listed
    }
  }
  return n;
}

/**
 * Keeps 3,000 connections to its own socket in flight: each one the door closes is opened again, until the test
 * writes `stop` into its scratch dir. Every 100 ms it writes its tally: how many attempts settled, how many are live.
 */
const FLOOD = `
const net = require("net"), fs = require("fs"), dir = process.env.TMPDIR;
let live = 0, settled = 0, stop = false;
function one() {
  const s = net.connect(process.env.DOCKET_DOOR);
  let up = false;
  s.on("connect", () => { up = true; live++; });
  s.on("error", () => {});
  s.on("close", () => { if (up) live--; settled++; if (!stop) setTimeout(one, 5); });
}
for (let i = 0; i < 3000; i++) one();
setInterval(() => {
  stop = stop || fs.existsSync(dir + "/stop");
  fs.writeFileSync(dir + "/flood.tmp", JSON.stringify({ live, settled, stop }));
  fs.renameSync(dir + "/flood.tmp", dir + "/flood");
}, 100);
`;

test("a contained worker flooding its socket with connections holds at most its share; the idle ones are closed; another worker's heartbeats land throughout", {
  timeout: 300_000,
}, async (t) => {
  const g = doorGround(t, { door: { idleSeconds: 3 } });
  const honest = await containedWorker(g, "exec sleep 600", "honest");
  await honestHeartbeat(honest);
  const pid = doorPid(g.home);
  assert.ok(pid, "the door runs");
  const before = socketFds(pid);

  const attacker = await containedWorker(g, `${nodeScript(g, "flood", FLOOD)}; exec sleep 600`, "flood");
  const tally = () => {
    const line = scratchLine(attacker, "flood", /settled/)();
    return line ? (JSON.parse(line) as { live: number; settled: number; stop: boolean }) : undefined;
  };
  await waitFor(
    "the flood under way (thousands of connections closed by the door)",
    () => (tally()?.settled ?? 0) > 3000,
    120_000,
    200,
  );

  let most = 0;
  for (let i = 0; i < 10; i++) {
    most = Math.max(most, socketFds(pid));
    await honestHeartbeat(honest);
    most = Math.max(most, socketFds(pid));
  }
  const share = DEFAULT_DOOR_LIMITS.connectionsPerWorker;
  // The door's own sockets before the flood, the attacker's listening socket and its share, one heartbeat's
  // connection, and a little room for sockets the door opens for itself meanwhile; without a cap it held thousands.
  assert.ok(
    most <= before + 1 + share + 1 + 4,
    `the door held ${most} sockets (${before} before the flood; share ${share})`,
  );
  // The attacker's own tally is not checked against the share: it counts a connection live from the moment the kernel
  // queued it in the socket's backlog until the door's close reaches it, so under load it runs ahead of the door.

  writeFileSync(join(attacker.scratch, "stop"), "");
  await waitFor(
    "the attacker's idle connections closed by the door",
    () => tally()?.stop && tally()?.live === 0,
    120_000,
    200,
  );
  await honestHeartbeat(honest);
  assert.equal(doorPid(g.home), pid, "the same door serves on");
});
