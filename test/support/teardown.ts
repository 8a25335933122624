// One teardown per test for everything it started: child processes, private tmux servers with every process in their
// panes, and temp dirs — removed only once every one of those processes has exited, so removal never races a writer.

import { execFileSync, type ChildProcess } from "node:child_process";
import { realpathSync, rmSync } from "node:fs";
import {
  commandLine,
  isAlive,
  processTable,
  readProc,
  refersTo,
  selfAndAncestors,
  ticksNow,
  type Proc,
} from "./proc.js";

export interface Hooks {
  after(fn: () => void | Promise<void>): void;
}

export interface Teardown {
  /** A child process the test spawned: SIGTERM at teardown (if still running), then waited for with its descendants. */
  child(child: ChildProcess): void;
  /** A private tmux server (-L name): killed at teardown, then its server and pane processes waited for by pid. */
  tmux(socket: string): void;
  /** A directory removed after every process above has exited (and any process still running in it or naming it). */
  dir(path: string): void;
}

/** Grace after the polite stop (SIGTERM, or SIGHUP from the dying tmux server) before SIGKILL. */
const GRACE_MS = 5_000;
/** When processes that were SIGKILLed are still there, something is wrong: fail and say which. */
const DEADLINE_MS = 30_000;

const scopes = new WeakMap<Hooks, Teardown>();

/** The test's teardown (one per test context; the first call registers its single `after` hook). */
export function teardown(t: Hooks): Teardown {
  const known = scopes.get(t);
  if (known) return known;
  const children: ChildProcess[] = [];
  const sockets: string[] = [];
  const dirs: string[] = [];
  const scope: Teardown = {
    child: (c) => void children.push(c),
    tmux: (s) => void sockets.push(s),
    dir: (d) => void dirs.push(realpathSync(d)),
  };
  scopes.set(t, scope);
  const since = ticksNow() - 1;
  t.after(async () => {
    const tracked = new Tracked(since);
    for (const c of children) stopChild(c, tracked);
    for (const s of sockets) stopTmux(s, tracked);
    await tracked.drain(dirs, sockets);
    for (const d of [...dirs].reverse()) removeDir(d);
  });
  return scope;
}

/** Processes to wait for, by identity, plus the sessions (tmux panes) whose every member is waited for too. */
class Tracked {
  private readonly procs = new Map<number, Proc>();
  private readonly sessions = new Set<number>();
  private readonly never = selfAndAncestors();

  /** `since`: the test's start on the process clock; only processes started later can be found by their directory. */
  constructor(private readonly since: number) {}

  add(p: Proc | undefined): void {
    if (p && !this.never.has(p.pid) && !this.procs.has(p.pid)) this.procs.set(p.pid, p);
  }

  session(sid: number): void {
    if (!this.never.has(sid)) this.sessions.add(sid);
  }

  /** Adds the live descendants (by parent pid) of what is tracked, members of tracked sessions, and any process in `dirs`. */
  expand(dirs: readonly string[]): void {
    const table = processTable().filter((p) => !this.never.has(p.pid) && p.state !== "Z");
    const mayReferTo = (p: Proc) => Number(p.start) >= this.since && refersTo(p.pid, dirs);
    let grew = true;
    while (grew) {
      grew = false;
      for (const p of table) {
        if (this.procs.has(p.pid)) continue;
        const parent = this.procs.get(p.ppid);
        if ((parent && isAlive(parent)) || this.sessions.has(p.sid) || mayReferTo(p)) {
          this.procs.set(p.pid, p);
          grew = true;
        }
      }
    }
  }

  /** Tracks `root` and its live descendants; returns them. */
  tree(root: Proc): Proc[] {
    this.add(root);
    const out = [root];
    const table = processTable();
    for (let i = 0; i < out.length; i++) {
      for (const p of table) if (p.ppid === out[i]!.pid && p.state !== "Z" && !this.never.has(p.pid)) out.push(p);
    }
    for (const p of out) this.add(p);
    return out;
  }

  alive(): Proc[] {
    return [...this.procs.values()].filter(isAlive);
  }

  /** Waits until every tracked process has exited; SIGTERM then SIGKILL after the grace; fails at the deadline. */
  async drain(dirs: readonly string[], sockets: readonly string[]): Promise<void> {
    const started = Date.now();
    let signalled: NodeJS.Signals | undefined;
    for (;;) {
      this.expand(dirs);
      let alive = this.alive();
      if (alive.length === 0) {
        // A straggler may have started a server on one of the sockets again: stop it and wait for that one too.
        const restarted = sockets.filter((s) => serverPid(s) !== undefined);
        if (restarted.length === 0) return;
        for (const s of restarted) stopTmux(s, this);
        alive = this.alive();
      }
      const elapsed = Date.now() - started;
      const next: NodeJS.Signals | undefined =
        elapsed > 2 * GRACE_MS ? "SIGKILL" : elapsed > GRACE_MS ? "SIGTERM" : undefined;
      if (next && next !== signalled) {
        signalled = next;
        for (const p of alive) signal(p.pid, next);
      }
      if (elapsed > DEADLINE_MS) {
        const list = alive.map((p) => `  ${p.pid} ${commandLine(p.pid) || "(no command line)"}`).join("\n");
        throw new Error(
          `teardown: ${alive.length} process(es) this test started are still running ${Math.round(elapsed / 1000)} s after they were stopped (SIGKILL included); ` +
            `their directories were left in place:\n${list}\n${dirs.map((d) => `  ${d}`).join("\n")}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** SIGTERM to a child still running and to every process under it (found while it still is their parent). */
function stopChild(c: ChildProcess, tracked: Tracked): void {
  if (c.pid === undefined || c.exitCode !== null || c.signalCode !== null) return; // never started, or already reaped
  const root = readProc(c.pid);
  if (!root) return;
  for (const p of tracked.tree(root)) signal(p.pid, "SIGTERM");
}

function stopTmux(socket: string, tracked: Tracked): void {
  const server = serverPid(socket);
  if (server === undefined) return; // never started, or already exited with its last window
  tracked.add(readProc(server));
  for (const pane of tmuxLines(socket, "list-panes", "-a", "-F", "#{pane_pid}")) {
    // A dead pane (remain-on-exit) keeps the pid of a process long gone, which another process may now have:
    // only a live session leader forked by this server is a pane's process.
    const p = readProc(Number(pane));
    if (p?.ppid !== server || p.sid !== p.pid) continue;
    tracked.add(p);
    tracked.session(p.pid);
  }
  tracked.expand([]);
  tmuxLines(socket, "kill-server");
}

function serverPid(socket: string): number | undefined {
  const [pid] = tmuxLines(socket, "display-message", "-p", "#{pid}");
  return pid ? Number(pid) : undefined;
}

/** A tmux command on the private server; no server (or a dying one) answers nothing. */
function tmuxLines(socket: string, ...args: string[]): string[] {
  try {
    return execFileSync("tmux", ["-L", socket, ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 10_000,
    })
      .split("\n")
      .filter(Boolean);
  } catch {
    return [];
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // It exited between the look and the signal.
  }
}

function removeDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 0 });
  } catch (error) {
    throw new Error(
      `teardown: removing ${dir} failed after every process this test started had exited (${(error as Error).message}); something wrote into it that the test did not register with its teardown`,
    );
  }
}
