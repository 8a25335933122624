// ssh is a boundary: whatever the human's config says, Docket's ssh argv forwards no agent, X11, tunnel or
// configured forward and runs no LocalCommand — as ssh itself resolves it (`ssh -G`) — while host key checking stays
// the config's; the door's forward request carries only its own -R; the host's tmux starts with no agent or display.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  BOUNDARY_OPTIONS,
  controlPathOf,
  forwardRequestOptions,
  sshOptions,
  type SshTarget,
} from "../../../src/substrate/ssh/connection.js";
import { hostTmuxArgv, remoteAttachArgv, remoteHost, TMUX_UNSET } from "../../../src/substrate/ssh/host.js";
import { tempDir } from "../../support/temp.js";

/** A human's config as the issue found it: agent, X11, a forward of theirs and a local command, for every host. */
function humanConfig(dir: string): string {
  const path = join(dir, "config");
  writeFileSync(
    path,
    [
      "Host *",
      "  ForwardAgent yes",
      "  ForwardX11 yes",
      "  ForwardX11Trusted yes",
      "  Tunnel yes",
      "  RemoteForward /tmp/theirs.sock /tmp/their-local.sock",
      "  LocalForward 127.0.0.1:6000 127.0.0.1:6001",
      "  DynamicForward 1080",
      "  PermitLocalCommand yes",
      "  LocalCommand touch /tmp/pwned",
      "  StrictHostKeyChecking yes",
      `  UserKnownHostsFile ${join(dir, "known_hosts")}`,
      "Host box",
      "  HostName 127.0.0.1",
      "  Port 2222",
      "",
    ].join("\n"),
  );
  return path;
}

/** ssh's own resolution of an argv (`ssh -G`): the effective options, lower-cased keys, every value of each. */
function resolved(args: string[]): Map<string, string[]> {
  const out = execFileSync("ssh", ["-G", ...args], { encoding: "utf8" });
  const map = new Map<string, string[]>();
  for (const line of out.split("\n")) {
    const at = line.indexOf(" ");
    if (at < 0) continue;
    const key = line.slice(0, at);
    map.set(key, [...(map.get(key) ?? []), line.slice(at + 1)]);
  }
  return map;
}

function target(t: { after(fn: () => void): void }): SshTarget {
  const dir = tempDir(t);
  return { name: "box", destination: "box", sshConfig: humanConfig(dir), controlDir: dir };
}

test("every ssh argv carries the boundary options, and ssh resolves them over the human's config", (t) => {
  const box = target(t);
  const argv = sshOptions(box);
  assert.deepEqual(argv.slice(0, 2), ["-F", box.sshConfig], "the human's config is read");
  for (const option of ["ForwardAgent=no", "ForwardX11=no", "ClearAllForwardings=yes", "PermitLocalCommand=no"]) {
    const at = argv.indexOf(option);
    assert.ok(at > 0 && argv[at - 1] === "-o", `${option} is given`);
  }
  assert.ok(!argv.some((w) => /StrictHostKeyChecking|UserKnownHostsFile|GlobalKnownHostsFile/i.test(w)));

  const effective = resolved([...argv, "--", box.destination]);
  assert.deepEqual(effective.get("forwardagent"), ["no"]);
  assert.deepEqual(effective.get("forwardx11"), ["no"]);
  assert.deepEqual(effective.get("forwardx11trusted"), ["no"]);
  assert.deepEqual(effective.get("tunnel"), ["false"]);
  assert.deepEqual(effective.get("clearallforwardings"), ["yes"]);
  assert.deepEqual(effective.get("permitlocalcommand"), ["no"]);
  for (const forward of ["remoteforward", "localforward", "dynamicforward"])
    assert.equal(effective.get(forward), undefined, `no ${forward} survives`);
  // The config still decides everything else: the host, and host key checking (never turned off).
  assert.deepEqual(effective.get("hostname"), ["127.0.0.1"]);
  assert.deepEqual(effective.get("port"), ["2222"]);
  assert.deepEqual(effective.get("stricthostkeychecking"), ["true"]);
});

test("ClearAllForwardings drops a command-line -R too, so the door's forward request reads no config and carries only its -R", (t) => {
  const box = target(t);
  const door = "/home/u/.docket-host/door/w1/1.sock:/run/door/w1-1.sock";
  // Why the request cannot carry the boundary's ClearAllForwardings: ssh would drop Docket's own forward with it.
  const cleared = resolved([...sshOptions(box), "-R", door, "--", box.destination]);
  assert.equal(cleared.get("remoteforward"), undefined);

  const request = forwardRequestOptions(box);
  assert.deepEqual(request.slice(0, 2), ["-F", "none"]);
  assert.ok(request.includes(`ControlPath=${controlPathOf(box)}`), "it speaks only to Docket's own master");
  const effective = resolved([...request, "-R", door, "--", box.destination]);
  assert.deepEqual(effective.get("remoteforward"), [door.replace(":", " ")]);
  assert.equal(effective.get("localforward"), undefined);
  assert.equal(effective.get("dynamicforward"), undefined);
  assert.deepEqual(effective.get("forwardagent"), ["no"]);
  assert.deepEqual(effective.get("permitlocalcommand"), ["no"]);
});

test("the host's tmux server starts without the agent or display variables of the call that starts it", (t) => {
  const dir = tempDir(t);
  const socket = join(dir, "tmux.sock");
  t.after(() => void spawnSync("tmux", ["-S", socket, "kill-server"], { stdio: "ignore" }));
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    SSH_AUTH_SOCK: "/tmp/ssh-x/agent.1",
    SSH_AGENT_PID: "1",
    DISPLAY: ":0",
    WAYLAND_DISPLAY: "wayland-0",
    XAUTHORITY: "/root/.Xauthority",
    KEEP_ME: "kept",
  };
  const [program, ...args] = hostTmuxArgv(["-S", socket, "new-session", "-d", "-s", "s", "sleep 60"]);
  execFileSync(program!, args, { env });
  const global = execFileSync("tmux", ["-S", socket, "show-environment", "-g"], { encoding: "utf8" });
  for (const name of TMUX_UNSET) assert.doesNotMatch(global, new RegExp(`^${name}=`, "m"), `${name} is not there`);
  assert.match(global, /^KEEP_ME=kept$/m, "the rest of the environment is as it was");
});

test("the attach argv a human copies carries the boundary options and attaches without agent or display", (t) => {
  const box = target(t);
  const argv = remoteAttachArgv(remoteHost(box, "/home/u/.docket-host"), "docket", "@1");
  for (const option of BOUNDARY_OPTIONS) assert.ok(argv.includes(option), option);
  const line = argv.at(-1)!;
  assert.match(
    line,
    /^'env' '-u' 'SSH_AUTH_SOCK' .* 'tmux' '-S' '\/home\/u\/\.docket-host\/tmux\.sock' 'attach-session'/,
  );
});
