// `docket doctor` on the door: whether one runs for this home (its pid, the generations it serves), and stale sockets —
// socket files no live door listens on, left by a door that died — which `--fix` removes.

import { CONTROL_SOCKET } from "../../domain/door.js";
import { doorPaths, listDoorSockets, removeSocketFile } from "../../files/door-files.js";
import type { HomeLayout } from "../../files/home.js";
import { runningDoor } from "../door/door.js";
import { samplePaths, type Finding } from "./findings.js";

export function checkDoor(home: HomeLayout, fix: boolean): Finding[] {
  const paths = doorPaths(home.root);
  const door = runningDoor(paths);
  const listening = new Set(door ? [CONTROL_SOCKET, ...door.sockets.map((s) => s.name)] : []);
  const stale = listDoorSockets(paths).filter((name) => !listening.has(name));
  const findings: Finding[] = [
    door
      ? {
          check: "door",
          severity: "ok",
          message: `running (pid ${door.pid}, since ${door.startedAt}), serving ${door.sockets.length} worker generation${door.sockets.length === 1 ? "" : "s"}${door.sockets.length ? `: ${door.sockets.map((s) => `${s.worker}@${s.generation}`).join(", ")}` : ""}`,
          paths: [paths.dir],
        }
      : { check: "door", severity: "ok", message: "not running (the next spawn, or the next worker call, starts it)" },
  ];
  if (stale.length > 0) {
    const removed = fix ? stale.filter((name) => removeSocketFile(paths.socket(name))) : [];
    findings.push({
      check: "door",
      severity: "warning",
      message: `${stale.length} stale socket${stale.length === 1 ? "" : "s"} no door listens on${removed.length ? ` (removed ${removed.length})` : ""}`,
      paths: samplePaths(stale.map((n) => paths.socket(n))),
      fix: "run `docket doctor --fix` to remove them (a worker's next call starts a door again)",
      ...(fix && removed.length === stale.length ? { fixed: true } : {}),
    });
  }
  return findings;
}
