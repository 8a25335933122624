// The door stays up for a worker on a host: its socket is a forward over ssh to the door here, and its
// client never starts a door. SIGKILLed while that worker calls, the door is back by itself (its supervisor, here) at
// the same socket path, the forward reaches it with nothing done on the host, and every call lands exactly once.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { addLoopHost, remoteGround } from "../support/sshd.js";
import { waitFor } from "../support/wait.js";

const CALLS = 12;

const SCRIPT = [
  `i=1; while [ $i -le ${CALLS} ]; do`,
  '  "$DOCKET_NODE" "$DOCKET_BIN" worker note "remote-$i" >> calls.log 2>&1 || echo "FAILED remote-$i" >> failed',
  "  i=$((i + 1)); sleep 0.3",
  "done",
  "echo finished > finished",
  "exec sleep 600",
].join("\n");

const pidIn = (file: string) => {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { pid: number }).pid;
  } catch {
    return undefined;
  }
};

test("the door SIGKILLed while a worker on a host calls through its ssh forward: back by itself, every call lands once, and only that worker's socket is forwarded", {
  timeout: 300_000,
}, async (t) => {
  const ground = await remoteGround(t);
  const { host, home, run } = ground;
  addLoopHost(ground);
  const spawned = run("spawn", "--agent", "command", "--cmd", SCRIPT, "--host", "loop", "--yes", "call home");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  const w = spawned.json.worker as string;
  const workspace = join(host.remoteDir, "workers", w, "workspace");
  const notes = () => {
    const db = new Database(join(home, "ledger.sqlite"), { readonly: true });
    try {
      return db.prepare("SELECT text FROM notes WHERE worker = ?").all(w) as { text: string }[];
    } finally {
      db.close();
    }
  };
  await waitFor("its first calls home", () => notes().length >= 3, 120_000, 100);
  const state = join(home, "door-control", "state.json");
  const first = pidIn(state)!;
  process.kill(first, "SIGKILL");
  await waitFor(
    "a new door, with no human command",
    () => {
      const pid = pidIn(state);
      return pid !== undefined && pid !== first && existsSync(`/proc/${pid}`);
    },
    60_000,
    20,
  );
  await waitFor("its calls to finish", () => existsSync(join(workspace, "finished")), 240_000, 200);
  assert.equal(existsSync(join(workspace, "failed")), false, readFileSync(join(workspace, "calls.log"), "utf8"));
  const texts = notes().map((n) => n.text);
  assert.deepEqual(
    [...texts].sort(),
    Array.from({ length: CALLS }, (_, i) => `remote-${i + 1}`).sort(),
    "every call landed exactly once",
  );
  // On the host, the door's directory holds only this worker's forwarded socket: no control socket, no door files.
  assert.deepEqual(readdirSync(join(host.remoteDir, "door")), [w]);
  assert.deepEqual(readdirSync(join(host.remoteDir, "door", w)), ["1.sock"]);
});
