// A project, a home with sandbox "required" (the test root shown read-only) and command workers that act from inside
// their sandbox, for the door's supervision tests: where the door's and its supervisor's pids are, and
// what the workers recorded, read straight from the files (never through a human command, which would revive it).

import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { cliGround } from "./cli-workers.js";
import { assertExit, docket, UNCONTAINED, type CliRun } from "./docket-cli.js";
import { waitFor } from "./wait.js";

export interface DoorGround {
  root: string;
  repo: string;
  home: string;
  env: NodeJS.ProcessEnv;
  human(...args: string[]): CliRun;
  /** Spawns a command worker running `script` (contained unless `uncontained`); returns its id. */
  spawn(script: string, options?: { uncontained?: boolean }): string;
  /** The live door's pid (its state file names it and the process runs), else undefined. */
  doorPid(): number | undefined;
  supervisorPid(): number | undefined;
  /** The notes each worker left, by text, with how many times each was recorded. */
  notes(worker: string): Map<string, number>;
}

/** Runs, and is not a zombie (a SIGKILLed door whose parent died waits for a reaper that may be slow). */
const alive = (pid: number | undefined) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};
const pidIn = (file: string): number | undefined => {
  try {
    return (JSON.parse(readFileSync(file, "utf8")) as { pid: number }).pid;
  } catch {
    return undefined;
  }
};

export function doorGround(t: { after(fn: () => void): void }): DoorGround {
  const {
    root,
    repo,
    home,
    env,
    run: human,
  } = cliGround(t, {
    prefix: "docket-door-up-",
    userHome: "tmp",
    sandbox: { mode: "auto" },
  });
  const control = join(home, "door-control");
  let scripts = 0;
  return {
    root,
    repo,
    home,
    env,
    human,
    spawn(script, options = {}) {
      const file = join(root, `worker-${++scripts}.sh`);
      writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
      const r = docket(
        { env: { ...env, ...(options.uncontained ? UNCONTAINED : {}) }, cwd: repo },
        "spawn",
        "--agent",
        "command",
        "--cmd",
        file,
        `worker ${scripts}`,
        "--json",
      );
      assertExit(r, 0);
      return r.json.worker as string;
    },
    doorPid: () => {
      const pid = pidIn(join(control, "state.json"));
      return alive(pid) && existsSync(join(control, "control.sock")) ? pid : undefined;
    },
    supervisorPid: () => {
      const pid = pidIn(join(control, "supervisor.json"));
      return alive(pid) ? pid : undefined;
    },
    notes(worker) {
      const db = new Database(join(home, "ledger.sqlite"), { readonly: true });
      try {
        const rows = db.prepare("SELECT text FROM notes WHERE worker = ?").all(worker) as { text: string }[];
        const out = new Map<string, number>();
        for (const r of rows) out.set(r.text, (out.get(r.text) ?? 0) + 1);
        return out;
      } finally {
        db.close();
      }
    },
  };
}

/** Waits until a door and its supervisor run (bounded, generous: the machine may be loaded). */
export async function doorUp(g: DoorGround, label: string): Promise<{ door: number; supervisor: number }> {
  try {
    return await waitFor(
      label,
      () => {
        const door = g.doorPid();
        const supervisor = g.supervisorPid();
        return door !== undefined && supervisor !== undefined ? { door, supervisor } : undefined;
      },
      60_000,
      50,
    );
  } catch (error) {
    const dir = join(g.home, "door-control");
    const log = existsSync(join(dir, "door.log")) ? readFileSync(join(dir, "door.log"), "utf8") : "(no log)";
    const files = readdirSync(dir).map(
      (f) => `${f} (${Math.round(Date.now() - statSync(join(dir, f)).mtimeMs)} ms old)`,
    );
    const said = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8").trim() : "-");
    throw new Error(
      `${(error as Error).message}; ${dir} holds ${files.join(", ")}; state ${said("state.json")}; supervisor ${said("supervisor.json")}; door.log:\n${log}`,
    );
  }
}

/** Waits for a door other than `old` to serve (its supervisor restarted it) and returns its pid. */
export function doorAfter(g: DoorGround, old: number, label: string): Promise<number> {
  return waitFor(
    label,
    () => {
      const pid = g.doorPid();
      return pid !== undefined && pid !== old ? pid : undefined;
    },
    60_000,
    20,
  );
}
