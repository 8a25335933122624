// The door's supervisor: many started at once for one home leave one, and one door; it ends when its door
// stops itself (nothing to serve) or is stopped by `docket door stop`, and then nothing restarts the door.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { identityEnv } from "../../support/protocol-worker.js";
import { cliEnv, docket, DOCKET_BIN } from "../../support/docket-cli.js";
import { teardown, type Hooks } from "../../support/teardown.js";
import { waitFor } from "../../support/wait.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";
import { callDoor, doorOf } from "../../../src/surfaces/shared/door-client.js";

function startSupervisor(t: Hooks, home: string): ChildProcess {
  const child = spawn(process.execPath, [DOCKET_BIN, "door", "supervise", join(home, "door")], {
    env: cliEnv({ DOCKET_HOME: home }),
    stdio: "ignore",
  });
  teardown(t).child(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((res) =>
    child.exitCode !== null ? res(child.exitCode) : child.on("exit", (code) => res(code)),
  );

/** Live processes running `docket door <verb> <home>/door`. */
function processes(home: string, verb: "serve" | "supervise"): number[] {
  const want = `door\0${verb}\0${join(home, "door")}\0`;
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .flatMap((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, "utf8");
        if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") return [];
        return readFileSync(`/proc/${n}/cmdline`, "utf8").includes(want) ? [Number(n)] : [];
      } catch {
        return [];
      }
    });
}

test("eight supervisors started at once for one home: one stays and one door serves; the rest hand over and exit 0", {
  timeout: 120_000,
}, async (t) => {
  const { ctx, home } = workLedger(t);
  const w = addWorker(ctx, "tok-a");
  const supervisors = Array.from({ length: 8 }, () => startSupervisor(t, home));
  await waitFor(
    "all but one supervisor to exit",
    () => supervisors.filter((s) => s.exitCode === null).length <= 1,
    60_000,
    20,
  );
  const alive = supervisors.filter((s) => s.exitCode === null);
  assert.equal(alive.length, 1, "exactly one supervisor stays");
  for (const s of supervisors.filter((x) => x !== alive[0])) assert.equal(s.exitCode, 0);
  await waitFor("one door", () => processes(home, "serve").length === 1, 60_000, 20);
  const client = doorOf({ DOCKET_HOME: home, ...identityEnv(w) });
  await callDoor(client, "heartbeat", {});
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(processes(home, "serve").length, 1, "still one door");
  assert.deepEqual(processes(home, "supervise"), [alive[0]!.pid]);
});

test("a door with nothing to serve stops by itself and its supervisor ends with it; `docket door stop` ends both too, and nothing restarts the door", {
  timeout: 120_000,
}, async (t) => {
  const idle = workLedger(t);
  const lone = startSupervisor(t, idle.home);
  await waitFor("its door", () => processes(idle.home, "serve").length === 1, 60_000, 20);
  assert.equal(await exited(lone), 0, "the supervisor ends once its idle door stopped itself");
  await waitFor("the idle door's process to end", () => processes(idle.home, "serve").length === 0, 30_000, 20);
  await new Promise((r) => setTimeout(r, 1_000));
  assert.deepEqual(processes(idle.home, "serve"), [], "and nothing started another door");
  assert.equal(existsSync(join(idle.home, "door-control", "supervisor.sock")), false);
  assert.equal(existsSync(join(idle.home, "door-control", "supervisor.json")), false);

  const busy = workLedger(t);
  addWorker(busy.ctx, "tok-b"); // a live generation: this door would serve on
  const kept = startSupervisor(t, busy.home);
  await waitFor(
    "its door to serve",
    () => existsSync(join(busy.home, "door-control", "state.json")) && existsSync(join(busy.home, "door", "w1-1.sock")),
    60_000,
    20,
  );
  const stop = docket({ env: cliEnv({ DOCKET_HOME: busy.home }), cwd: busy.home }, "door", "stop");
  assert.equal(stop.code, 0, stop.stderr);
  assert.match(stop.stdout, /^(stopped|asked) the door \(pid \d+\)/);
  assert.equal(await exited(kept), 0, "the supervisor ends when the human stopped its door");
  await waitFor("the stopped door's process to end", () => processes(busy.home, "serve").length === 0, 30_000, 20);
  await new Promise((r) => setTimeout(r, 1_000));
  assert.deepEqual(processes(busy.home, "serve"), [], "a stopped door stays stopped");
});
