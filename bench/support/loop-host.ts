// The tests' loopback sshd as a benchmark's host "loop" (bench/places, bench/remote): the ground with the host added,
// the wait for a worker's marker file, and the teardown a benchmark runs itself (it has no node:test).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SshTarget } from "../../src/substrate/ssh/connection.js";
import { addLoopHost, remoteGround, type RemoteGround } from "../../test/support/sshd.js";

export interface LoopHostBench extends RemoteGround {
  target: SshTarget;
  /** Runs the teardown hooks in the order given (as node:test runs a test's), then stops the sshd should they not have. */
  finish(): Promise<void>;
}

export async function loopHostBench(): Promise<LoopHostBench> {
  const hooks: (() => void | Promise<void>)[] = [];
  const g = await remoteGround({ after: (fn) => void hooks.push(fn) });
  const sshdPid = Number(readFileSync(join(g.host.dir, "sshd.pid"), "utf8").trim());
  const target = addLoopHost(g);
  const finish = async () => {
    for (const fn of hooks) await fn();
    try {
      process.kill(sshdPid, "SIGTERM");
    } catch {
      // stopped already
    }
  };
  return { ...g, target, finish };
}

/** The text of `path` (trimmed) once the worker has written it whole, ending in a newline. */
export async function line(path: string, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(path)) {
      const text = readFileSync(path, "utf8");
      if (text.endsWith("\n")) return text.trim();
    }
    if (Date.now() > deadline) throw new Error(`no ${path} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
