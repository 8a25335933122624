// A remote host for one test: the test's own sshd on 127.0.0.1 (own host key, authorized_keys, config, pid file; no
// system sshd) logging in as a second Unix user, `docket-remote`, with its own HOME; and a client ssh config for -F.
// Stopped by an `after` hook registered before any teardown: remote tmux, ssh masters and keepers, then sshd itself.

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliEnv, docket, type CliRun } from "./docket-cli.js";
import { gitRepo } from "./git.js";
import { teardown, type Hooks } from "./teardown.js";
import { tempDir } from "./temp.js";
import { tmuxServer } from "./tmux.js";
import { controlDirFor, exitMaster, type SshTarget } from "../../src/substrate/ssh/connection.js";

export const REMOTE_USER = "docket-remote";

export interface LoopbackHost {
  dir: string;
  port: number;
  /** The client config naming the host `loop` (port, key, known_hosts in the temp dir, strict host key checking). */
  sshConfig: string;
  alias: string;
  /** The remote user's home, and a fresh Docket directory under it for this test. */
  remoteHome: string;
  remoteDir: string;
  /** Processes to stop at the end (ssh masters, tunnel keepers) by pid file or pid. */
  onStop(fn: () => void): void;
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

/** The second user, made once (idempotent) and unlocked for key logins (`*`: no password works). */
function ensureRemoteUser(): string {
  const known = spawnSync("getent", ["passwd", REMOTE_USER], { encoding: "utf8" });
  if (known.status !== 0) {
    const made = spawnSync("useradd", ["-m", "-s", "/bin/sh", REMOTE_USER], { encoding: "utf8" });
    if (made.status !== 0 && spawnSync("getent", ["passwd", REMOTE_USER]).status !== 0)
      throw new Error(`useradd ${REMOTE_USER}: ${made.stderr}`);
  }
  execFileSync("usermod", ["-p", "*", REMOTE_USER]);
  return execFileSync("getent", ["passwd", REMOTE_USER], { encoding: "utf8" }).split(":")[5]!;
}

/** `path`: the host's PATH for every command ssh runs there (a test's own tools first). */
export interface LoopbackOptions {
  path?: string;
}

export async function loopbackHost(t: Hooks, options: LoopbackOptions = {}): Promise<LoopbackHost> {
  const remoteHome = ensureRemoteUser();
  mkdirSync("/run/sshd", { recursive: true, mode: 0o755 }); // sshd's privilege separation directory
  const dir = mkdtempSync(join(tmpdir(), "docket-sshd-"));
  chmodSync(dir, 0o711); // the remote user's sshd child reads authorized_keys here, nothing else
  const stops: (() => void)[] = [];
  const remoteDir = join(remoteHome, `t-${randomBytes(4).toString("hex")}`);
  t.after(() => {
    for (const fn of stops.reverse()) {
      try {
        fn();
      } catch {
        // best effort: the next stop and teardown's wait still run
      }
    }
    spawnSync("tmux", ["-S", join(remoteDir, "tmux.sock"), "kill-server"], { stdio: "ignore" });
    try {
      process.kill(Number(readFileSync(join(dir, "sshd.pid"), "utf8").trim()), "SIGTERM");
    } catch {
      // it never started, or stopped already
    }
    rmSync(remoteDir, { recursive: true, force: true });
    rmSync(`${remoteDir}-pi`, { recursive: true, force: true });
  });
  teardown(t).dir(dir);
  for (const key of ["host_key", "client_key"])
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, key)]);
  writeFileSync(join(dir, "authorized_keys"), readFileSync(join(dir, "client_key.pub")), { mode: 0o644 });
  const port = await freePort();
  const sshdConfig = join(dir, "sshd_config");
  writeFileSync(
    sshdConfig,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${join(dir, "host_key")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      "UsePAM no",
      "StrictModes no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PubkeyAuthentication yes",
      `AllowUsers ${REMOTE_USER}`,
      "AllowStreamLocalForwarding yes",
      "LogLevel VERBOSE",
      // pi on the host keeps its own config (auth, settings) in its agent dir: this test's own, not the user's ~/.pi.
      `SetEnv PI_CODING_AGENT_DIR=${remoteDir}-pi PI_OFFLINE=1 PI_SKIP_VERSION_CHECK=1 PI_TELEMETRY=0${options.path ? ` PATH=${options.path}` : ""}`,
      "",
    ].join("\n"),
  );
  execFileSync("/usr/sbin/sshd", ["-f", sshdConfig, "-E", join(dir, "sshd.log")]);
  writeFileSync(
    join(dir, "known_hosts"),
    `[127.0.0.1]:${port} ${readFileSync(join(dir, "host_key.pub"), "utf8").split(" ").slice(0, 2).join(" ")}\n`,
  );
  const sshConfig = join(dir, "ssh_config");
  writeFileSync(
    sshConfig,
    [
      "Host loop",
      "  HostName 127.0.0.1",
      `  Port ${port}`,
      `  User ${REMOTE_USER}`,
      `  IdentityFile ${join(dir, "client_key")}`,
      "  IdentitiesOnly yes",
      `  UserKnownHostsFile ${join(dir, "known_hosts")}`,
      "  StrictHostKeyChecking yes",
      "",
    ].join("\n"),
  );
  return { dir, port, sshConfig, alias: "loop", remoteHome, remoteDir, onStop: (fn) => void stops.push(fn) };
}

export interface RemoteGround {
  host: LoopbackHost;
  root: string;
  repo: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** The real CLI in the repository, with `--json`. */
  run(...args: string[]): CliRun;
}

/** The test's own sshd as a host, beside a local repository, a Docket home and a private tmux server. */
export async function remoteGround(t: Hooks, options: LoopbackOptions = {}): Promise<RemoteGround> {
  const host = await loopbackHost(t, options);
  const root = tempDir(t);
  mkdirSync(join(root, "repo"));
  const repo = gitRepo(join(root, "repo"), { "a.txt": "one\n" });
  const home = join(root, "docket");
  const server = tmuxServer(t);
  const env = cliEnv({ DOCKET_HOME: home, DOCKET_TMUX_SOCKET: server.socket, HOME: root, TMPDIR: root });
  return { host, root, repo, home, env, run: (...args) => docket({ env, cwd: repo }, ...args, "--json") };
}

/** `docket hosts add loop` for the ground's sshd, its ssh master ended when the host stops; the target as Docket sees it. */
export function addLoopHost(g: RemoteGround): SshTarget {
  const { host, home, run } = g;
  const target: SshTarget = {
    name: "loop",
    destination: host.alias,
    sshConfig: host.sshConfig,
    controlDir: controlDirFor(home, process.getuid!()),
  };
  host.onStop(() => exitMaster(target));
  const added = run("hosts", "add", "loop", host.alias, "--dir", host.remoteDir, "--ssh-config", host.sshConfig);
  assert.equal(added.code, 0, added.stderr + added.stdout);
  return target;
}
