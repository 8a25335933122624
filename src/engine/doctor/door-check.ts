// `docket doctor` on the door: whether one runs for this home and is supervised, whether one should (live worker
// generations) and does not, and stale sockets no live door listens on. `--fix` starts the supervised door (and waits
// for it) or its supervisor, and removes stale sockets.

import { EXPLAIN_SOCKET } from "../../domain/door.js";
import { doorPaths, listDoorSockets, removeSocketFile, type DoorPaths } from "../../files/door-files.js";
import type { HomeLayout } from "../../files/home.js";
import { openReadOnlyRaw } from "../../ledger/core/read-only.js";
import { servedGenerations } from "../../ledger/workers/workers.js";
import { pathExists } from "../../files/probe.js";
import { runningDoor, startDoorFor } from "../door/door.js";
import { runningSupervisor } from "../door/supervision.js";
import { samplePaths, type Finding } from "./findings.js";

/** How long `--fix` waits for a door it started to serve before it says it did not. */
const FIX_WAIT_MS = 20_000;

export function checkDoor(home: HomeLayout, fix: boolean, env: NodeJS.ProcessEnv): Finding[] {
  const paths = doorPaths(home.root);
  const live = liveGenerations(home);
  const findings: Finding[] = [doorFinding(home, paths, live, fix, env)];
  const door = runningDoor(paths);
  const listening = new Set(door ? [EXPLAIN_SOCKET, ...door.sockets.map((s) => s.name)] : []);
  const stale = listDoorSockets(paths).filter((name) => !listening.has(name));
  if (stale.length > 0) {
    const removed = fix ? stale.filter((name) => removeSocketFile(paths.socket(name))) : [];
    findings.push({
      check: "door",
      severity: "warning",
      message: `${stale.length} stale socket${stale.length === 1 ? "" : "s"} no door listens on${removed.length ? ` (removed ${removed.length})` : ""}`,
      paths: samplePaths(stale.map((n) => paths.socket(n))),
      fix: "run `docket doctor --fix` to remove them (a door that starts makes its own)",
      ...(fix && removed.length === stale.length ? { fixed: true } : {}),
    });
  }
  return findings;
}

/** The worker generations a door must serve now, as `w1@2`; undefined when the ledger cannot be read. */
function liveGenerations(home: HomeLayout): string[] | undefined {
  if (!pathExists(home.ledger)) return [];
  try {
    const db = openReadOnlyRaw(home.ledger);
    try {
      return servedGenerations(db).map((g) => `${g.worker}@${g.generation}`);
    } finally {
      db.close();
    }
  } catch {
    return undefined; // the ledger finding says why
  }
}

function doorFinding(
  home: HomeLayout,
  paths: DoorPaths,
  live: string[] | undefined,
  fix: boolean,
  env: NodeJS.ProcessEnv,
): Finding {
  const door = runningDoor(paths);
  const supervisor = runningSupervisor(paths);
  if (door && supervisor) {
    const served = door.sockets.map((s) => `${s.worker}@${s.generation}`);
    return {
      check: "door",
      severity: "ok",
      message: `running (pid ${door.pid}, since ${door.startedAt}, supervised by pid ${supervisor.pid}), serving ${served.length} worker generation${served.length === 1 ? "" : "s"}${served.length ? `: ${served.join(", ")}` : ""}`,
      paths: [paths.dir],
    };
  }
  if (door) {
    const fixed = fix && startAndWait(home, env, () => runningSupervisor(paths) !== undefined);
    return {
      check: "door",
      severity: "warning",
      message: `running (pid ${door.pid}) but not supervised: if it dies, workers' calls fail until a human command revives it${fixed ? " (supervisor started)" : ""}`,
      fix: "run `docket doctor --fix` (any docket command that opens the ledger also starts its supervisor)",
      ...(fixed ? { fixed: true } : {}),
    };
  }
  if (!live || live.length === 0)
    return {
      check: "door",
      severity: "ok",
      message: "not running (no live worker needs it; the next spawn starts it)",
    };
  const fixed = fix && startAndWait(home, env, () => runningSupervisor(paths) !== undefined && servesAll(paths, live));
  return {
    check: "door",
    severity: "problem",
    message: `not running while ${live.length} worker generation${live.length === 1 ? "" : "s"} need${live.length === 1 ? "s" : ""} it (${live.join(", ")}): their calls fail with door-unreachable${fixed ? " (started it, supervised)" : ""}`,
    fix: `run \`docket doctor --fix\` to start the door and its supervisor (its log: ${paths.log})`,
    ...(fixed ? { fixed: true } : {}),
  };
}

function servesAll(paths: DoorPaths, live: readonly string[]): boolean {
  const door = runningDoor(paths);
  const served = new Set(door?.sockets.map((s) => `${s.worker}@${s.generation}`));
  return door !== undefined && live.every((g) => served.has(g));
}

/** Starts the supervised door and waits (bounded) until `done` holds. */
function startAndWait(home: HomeLayout, env: NodeJS.ProcessEnv, done: () => boolean): boolean {
  startDoorFor(home.root, env, Date.now());
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const until = Date.now() + FIX_WAIT_MS; Date.now() < until; Atomics.wait(pause, 0, 0, 100))
    if (done()) return true;
  return done();
}
