// A worker generation's door tunnel: `ssh -O forward -R <socket on the host>:<its door socket here>` on the host's
// master (and its egress proxy's socket beside it, when it has one), kept up by one small detached process that
// re-makes the master and the forwards whenever they drop.
// Its pid file is its lease: removed (delete) or taken by a newer generation (respawn), the keeper cancels and exits.

import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startNodeDetached } from "../node-process.js";
import { ensureMaster, forwardRequestOptions, runRemote, sshOptions, type SshTarget } from "./connection.js";

/** One socket on the host that reaches one socket here. */
export interface ForwardedSocket {
  remote: string;
  local: string;
}

export interface TunnelSpec {
  target: SshTarget;
  sockets: readonly ForwardedSocket[];
  /** The keeper's lease: it writes its pid here and runs while the file still names it. */
  pidFile: string;
}

const KEEPER = join(dirname(fileURLToPath(import.meta.url)), "tunnel-main.js");

/** Starts the keeper of one tunnel, detached; returns at once (the forward is up within its first round). */
export function startTunnel(
  spec: TunnelSpec,
  options: { env: NodeJS.ProcessEnv; logPath: string },
): number | undefined {
  return startNodeDetached([KEEPER, JSON.stringify(spec)], { cwd: "/", env: options.env, logPath: options.logPath })
    .pid;
}

/** The master's pid as `ssh -O check` reports it; undefined when no master answers. */
export function masterPid(target: SshTarget): number | undefined {
  const r = spawnSync("ssh", [...sshOptions(target), "-O", "check", "--", target.destination], {
    encoding: "utf8",
    timeout: 5_000,
    killSignal: "SIGKILL",
  });
  const m = r.status === 0 ? /pid=(\d+)/.exec(`${r.stderr}${r.stdout}`) : null;
  return m ? Number(m[1]) : undefined;
}

/** `ssh -O forward|cancel` of every socket of the spec, in one request to the master. */
function requestForwards(spec: TunnelSpec, op: "forward" | "cancel", timeout: number): boolean {
  const pairs = spec.sockets.flatMap((s) => ["-R", `${s.remote}:${s.local}`]);
  const argv = [...forwardRequestOptions(spec.target), "-O", op, ...pairs, "--", spec.target.destination];
  return spawnSync("ssh", argv, { stdio: "ignore", timeout, killSignal: "SIGKILL" }).status === 0;
}

/** Puts the forwards on the current master: the host's stale sockets of an earlier forward are removed first. */
export function forward(spec: TunnelSpec): boolean {
  ensureMaster(spec.target);
  runRemote(spec.target, ["rm", "-f", "--", ...spec.sockets.map((s) => s.remote)]);
  return requestForwards(spec, "forward", 10_000);
}

export function cancelForward(spec: TunnelSpec): void {
  requestForwards(spec, "cancel", 5_000);
}

/** The pid a tunnel's lease names; undefined when there is none. */
export function leaseHolder(pidFile: string): number | undefined {
  try {
    const n = Number(readFileSync(pidFile, "utf8").trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Ends a tunnel: its lease goes (the keeper sees it within a second) and its keeper is asked to stop now. */
export function stopTunnel(pidFile: string): void {
  const pid = leaseHolder(pidFile);
  rmSync(pidFile, { force: true });
  if (pid === undefined) return;
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // already gone: nothing keeps the forward now
  }
}
