// OpenSSH as Docket drives it: argv only, one master connection per host (ControlMaster, socket in a private 0700
// directory) reused by every call, a timeout on every call, host keys checked as the user's own ssh config says.
// ssh is a boundary: no agent, X11, tunnel or configured forward and no local command ever rides Docket's connection.
// The master is started explicitly (`-M -N -f`, output to a log file) so no call ever waits on a backgrounded master's pipes.

import { spawnSync } from "node:child_process";
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { type DocketError, refusal } from "../../domain/errors.js";
import { remoteCommandLine } from "./quote.js";

export interface SshTarget {
  /** The host's name in the user's config (for messages). */
  name: string;
  destination: string;
  /** `-F <file>` when given; otherwise ssh's own default config. */
  sshConfig?: string;
  /** The private directory that holds this home's control sockets (see controlDirFor). */
  controlDir: string;
}

export interface SshResult {
  status: number;
  stdout: Buffer;
  stderr: string;
  /** The command wrote more than `maxStdout`: ssh was killed and its output cut. */
  overflowed?: boolean;
}

/** Seconds ssh may take to connect before it gives up (ConnectTimeout). */
export const CONNECT_TIMEOUT_S = 5;
/** A call (connection included) that has not finished by then is killed and reported unreachable. */
export const CALL_TIMEOUT_MS = 20_000;
/** How long an idle master stays up after its last client. */
const PERSIST_S = 600;

/** A Unix socket path longer than this cannot be bound; ssh adds a 17-byte suffix while it makes the master's. */
const CONTROL_PATH_MAX = 107 - 17;

/**
 * The control-socket directory of one Docket home: `/tmp/docket-<uid>/ssh-<hash of the home>` (short, so the socket
 * path fits), made 0700 and checked to be this user's own real directory before use.
 */
export function controlDirFor(homeRoot: string, uid: number): string {
  const top = `/tmp/docket-${uid}`;
  const dir = join(top, `ssh-${createHash("sha256").update(homeRoot).digest("hex").slice(0, 12)}`);
  for (const d of [top, dir]) {
    mkdirSync(d, { mode: 0o700, recursive: true });
    const st = lstatSync(d);
    if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) {
      throw refusal(
        "ssh-control-dir-unsafe",
        `${d} is not a private directory of this user (mode 0700); no ssh connection was made`,
        `remove ${d} and try again`,
      );
    }
  }
  return dir;
}

/** The master's socket for a target: named by a hash of what selects the connection. */
export function controlPathOf(target: SshTarget): string {
  const key = createHash("sha256")
    .update(`${target.destination}\u0000${target.sshConfig ?? ""}`)
    .digest("hex")
    .slice(0, 16);
  const path = join(target.controlDir, key);
  if (Buffer.byteLength(path) > CONTROL_PATH_MAX)
    throw refusal(
      "ssh-control-path-too-long",
      `the ssh control socket ${path} is too long for a Unix socket`,
      "use a shorter TMPDIR-free path (/tmp is used)",
    );
  return path;
}

/**
 * What a worker on the host must never get through Docket's connection, whatever the user's config says (`Host *` with
 * `ForwardAgent yes` is common): the human's ssh agent, their X display, a tun device, the forwards their config lists,
 * a LocalCommand. ssh takes the first value it gets and the command line comes before any config file. Nothing here
 * loosens host key checking: that stays as the user's config says.
 */
export const BOUNDARY_OPTIONS = [
  "ForwardAgent=no",
  "ForwardX11=no",
  "ForwardX11Trusted=no",
  "Tunnel=no",
  "ClearAllForwardings=yes",
  "PermitLocalCommand=no",
] as const;

const boundary = BOUNDARY_OPTIONS.flatMap((o) => ["-o", o]);

/** The options every ssh invocation of Docket carries (before the destination). */
export function sshOptions(target: SshTarget): string[] {
  return [
    ...(target.sshConfig ? ["-F", target.sshConfig] : []),
    "-o",
    "BatchMode=yes", // never a prompt nobody can answer: an unknown host key or a password is a refusal, not a hang
    "-o",
    `ConnectTimeout=${CONNECT_TIMEOUT_S}`,
    "-o",
    `ControlPath=${controlPathOf(target)}`,
    ...boundary,
  ];
}

/**
 * The options of a request to add or cancel a forward on the running master (`-O forward|cancel -R …`). ssh's
 * ClearAllForwardings also drops a `-R` given on the command line (measured with OpenSSH 9.2: `-O forward` then
 * exits 0 and forwards nothing), and without it the request carries the user's configured forwards too. So this one
 * request reads no config file at all (`-F none`): it only talks to Docket's own master over its control socket, and
 * its `-R` is the only forward it sends.
 */
export function forwardRequestOptions(target: SshTarget): string[] {
  return ["-F", "none", "-o", "BatchMode=yes", "-o", `ControlPath=${controlPathOf(target)}`];
}

export function unreachable(target: SshTarget, why: string): DocketError {
  return refusal(
    "host-unreachable",
    `host ${target.name} (${target.destination}) cannot be reached: ${why}`,
    `check it with \`docket hosts check ${target.name}\``,
  );
}

/** The master answers on its control socket. */
export function masterRunning(target: SshTarget): boolean {
  const r = spawnSync("ssh", [...sshOptions(target), "-O", "check", "--", target.destination], {
    stdio: "ignore",
    timeout: 5_000,
    killSignal: "SIGKILL",
  });
  return r.status === 0;
}

/**
 * Makes sure the host's master connection runs, starting it when it does not (a stale socket of a killed master is
 * removed first). Concurrent callers are serialised by a claim directory, so one master is started, not one each.
 */
export function ensureMaster(target: SshTarget, timeoutMs = CALL_TIMEOUT_MS): void {
  if (masterRunning(target)) return;
  const path = controlPathOf(target);
  const claim = `${path}.starting`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(claim, { mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (masterRunning(target)) return;
      if (ageMs(claim) > timeoutMs) rmSync(claim, { recursive: true, force: true }); // its starter died
      if (Date.now() > deadline) throw unreachable(target, "another start of its connection did not finish");
      sleepSync(100);
    }
  }
  try {
    if (masterRunning(target)) return;
    rmSync(path, { force: true }); // a killed master's socket: ssh would refuse to bind a new one over it
    const log = `${path}.log`;
    const fd = openSync(log, "w", 0o600);
    let r;
    try {
      r = spawnSync(
        "ssh",
        [
          ...sshOptions(target),
          "-M",
          "-N",
          "-f",
          "-o",
          `ControlPersist=${PERSIST_S}`,
          "-o",
          "ServerAliveInterval=5",
          "-o",
          "ServerAliveCountMax=3",
          "--",
          target.destination,
        ],
        { stdio: ["ignore", "ignore", fd], timeout: Math.max(1_000, deadline - Date.now()), killSignal: "SIGKILL" },
      );
    } finally {
      closeSync(fd);
    }
    if (r.error || r.status !== 0) {
      const said = readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .filter((l) => l !== "")
        .pop();
      throw unreachable(
        target,
        r.signal ? `no connection within ${Math.round(timeoutMs / 1000)} s` : (said ?? `ssh exited ${r.status}`),
      );
    }
  } finally {
    rmSync(claim, { recursive: true, force: true });
  }
}

/** Stops the host's master connection (and every forward on it); none running is fine. */
export function exitMaster(target: SshTarget): void {
  spawnSync("ssh", [...sshOptions(target), "-O", "exit", "--", target.destination], {
    stdio: "ignore",
    timeout: 5_000,
    killSignal: "SIGKILL",
  });
}

/**
 * Runs one argv on the host over the master (each word quoted once, by remoteCommandLine), with `input` on its stdin.
 * ssh's own failure (exit 255) or no answer within the timeout is `host-unreachable`; the command's status is returned.
 */
export function runRemote(
  target: SshTarget,
  argv: readonly string[],
  options: { input?: string | Buffer; timeoutMs?: number; maxStdout?: number } = {},
): SshResult {
  const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
  ensureMaster(target, timeoutMs);
  const r = spawnSync(
    "ssh",
    [...sshOptions(target), "-o", "ControlMaster=no", "-T", "--", target.destination, remoteCommandLine(argv)],
    {
      input: options.input ?? "",
      timeout: timeoutMs,
      killSignal: "SIGKILL",
      maxBuffer: options.maxStdout ?? 256 * 1024 * 1024,
    },
  );
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === "ENOBUFS")
    return { status: 1, stdout: r.stdout, stderr: "", overflowed: true };
  if (r.error && (r.error as NodeJS.ErrnoException).code === "ENOENT")
    throw refusal("ssh-missing", "ssh is not installed here (no `ssh` on PATH)", "install OpenSSH's client");
  const stderr = r.stderr?.toString("utf8") ?? "";
  if (r.signal) throw unreachable(target, `no answer within ${Math.round(timeoutMs / 1000)} s`);
  if (r.status === 255) throw unreachable(target, stderr.trim().split("\n").pop() || "ssh failed");
  return { status: r.status ?? 1, stdout: r.stdout ?? Buffer.alloc(0), stderr };
}

/** runRemote, refusing a non-zero status with the command's first stderr line. */
export function runRemoteOk(
  target: SshTarget,
  argv: readonly string[],
  what: string,
  options: { input?: string | Buffer; timeoutMs?: number } = {},
): Buffer {
  const r = runRemote(target, argv, options);
  if (r.status !== 0)
    throw refusal(
      "host-command-failed",
      `${what} failed on host ${target.name}: ${r.stderr.trim().split("\n")[0] || `exit ${r.status}`}`,
    );
  return r.stdout;
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
