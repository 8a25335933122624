// Workers contained on a host, through the real CLI against the test's own sshd as a second Unix user, with
// the human's ssh config forwarding their (real, running) agent, X11 and a socket of their own: `sandbox: required`
// spawns there contained; the worker writes only its workspace, its own git and scratch, cannot read or write a
// sibling's launch env, workspace or door, sees none of the host user's secrets, and has no ssh agent; its `done`
// still lands through its own door. A host whose bubblewrap cannot run: required refuses by name, auto says why.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AS_CONFIGURED, docket, type CliRun } from "../../support/docket-cli.js";
import { remoteGround, REMOTE_USER, type RemoteGround } from "../../support/sshd.js";
import { teardown, type Hooks } from "../../support/teardown.js";
import { waitFor } from "../../support/wait.js";
import { UNGATED_KIND, writeUngatedKind } from "../../support/scripted-pi.js";
import { controlDirFor, exitMaster } from "../../../src/substrate/ssh/connection.js";

interface Human {
  run(...args: string[]): CliRun;
  /** The socket the human's config asks to forward to the host (it must never appear there). */
  userForward: string;
}

/**
 * The human as the issue found them: a real ssh-agent holding the login key, and an ssh config (given with -F, as
 * Docket passes it) whose `Host *` forwards the agent, X11 and a socket of theirs; the sandbox as config.json says.
 */
function humanWithAgent(t: Hooks, g: RemoteGround, sandbox: "required" | "auto"): Human {
  const agentDir = mkdtempSync(join(tmpdir(), "docket-agent-"));
  teardown(t).dir(agentDir);
  const agentSock = join(agentDir, "agent.sock");
  const started = execFileSync("ssh-agent", ["-a", agentSock, "-s"], { encoding: "utf8" });
  const agentPid = Number(/SSH_AGENT_PID=(\d+)/.exec(started)![1]);
  t.after(() => {
    try {
      process.kill(agentPid, "SIGTERM");
    } catch {
      // gone already
    }
  });
  execFileSync("ssh-add", ["-q", join(g.host.dir, "client_key")], { env: { SSH_AUTH_SOCK: agentSock } });
  const userForward = `${g.host.remoteDir}-userfwd.sock`;
  const config = join(g.host.dir, "human_config");
  writeFileSync(
    config,
    [
      "Host *",
      "  ForwardAgent yes",
      "  ForwardX11 yes",
      `  RemoteForward ${userForward} ${join(agentDir, "nothing.sock")}`,
      "  PermitLocalCommand yes",
      `  LocalCommand touch ${join(agentDir, "local-command-ran")}`,
      readFileSync(g.host.sshConfig, "utf8"),
    ].join("\n"),
  );
  const env = { ...g.env, ...AS_CONFIGURED, SSH_AUTH_SOCK: agentSock };
  const run = (...args: string[]) => docket({ env, cwd: g.repo }, ...args, "--json");
  const added = run("hosts", "add", "loop", g.host.alias, "--dir", g.host.remoteDir, "--ssh-config", config);
  assert.equal(added.code, 0, added.stdout + added.stderr);
  const configFile = join(g.home, "config.json");
  writeFileSync(configFile, JSON.stringify({ ...JSON.parse(readFileSync(configFile, "utf8")), sandbox }));
  g.host.onStop(() =>
    exitMaster({
      name: "loop",
      destination: g.host.alias,
      sshConfig: config,
      controlDir: controlDirFor(g.home, process.getuid!()),
    }),
  );
  t.after(() => rmSync(userForward, { force: true }));
  assert.ok(!existsSync(join(agentDir, "local-command-ran")));
  return { run, userForward };
}

/** What the host's tmux server holds as its global environment (read as the host's user). */
function hostTmuxEnv(g: RemoteGround): string {
  const r = spawnSync(
    "runuser",
    ["-u", REMOTE_USER, "--", "tmux", "-S", join(g.host.remoteDir, "tmux.sock"), "show-environment", "-g"],
    { encoding: "utf8" },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** `name=yes|no` lines: whether each probe command succeeded inside the worker. */
function probeScript(out: string, probes: Record<string, string>): string {
  const lines = Object.entries(probes).map(
    ([name, cmd]) => `if ( ${cmd} ) >/dev/null 2>&1; then echo ${name}=yes; else echo ${name}=no; fi`,
  );
  return `{ echo "agent=\${SSH_AUTH_SOCK-unset}"; echo "display=\${DISPLAY-unset}"; ${lines.join("; ")}; } > ${out}`;
}

function parse(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
}

test("sandbox: required contains a worker on a host: only its workspace, git and scratch; no sibling, no secret, no agent", {
  timeout: 240_000,
}, async (t) => {
  const g = await remoteGround(t);
  const human = humanWithAgent(t, g, "required");
  const remote = g.host.remoteDir;
  // A secret of the host's user, where keys live.
  const sshDir = join(g.host.remoteHome, ".ssh");
  const hadSshDir = existsSync(sshDir);
  mkdirSync(sshDir, { recursive: true });
  const secret = join(sshDir, `docket-test-${Date.now()}`);
  writeFileSync(secret, "host user's key\n");
  execFileSync("chown", ["-R", `${REMOTE_USER}:`, sshDir]);
  t.after(() => (hadSshDir ? rmSync(secret, { force: true }) : rmSync(sshDir, { recursive: true, force: true })));
  // A file in the host's /tmp (where other sessions' sockets live): the worker's /tmp is its own. (Not "its /tmp is
  // empty": Docket's own install is bound read-only into the sandbox, and a checkout may live under /tmp.)
  const hostTmpFile = `/tmp/docket-host-tmp-${process.pid}-${Date.now()}`;
  writeFileSync(hostTmpFile, "another session's file\n", { mode: 0o644 });
  t.after(() => rmSync(hostTmpFile, { force: true }));

  const check = human.run("hosts", "check", "loop");
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.equal(check.json.sandbox.contained, true, JSON.stringify(check.json));
  assert.match(check.json.sandbox.bwrap, /^\/.*bwrap$/);

  const sibling = human.run(
    "spawn",
    "--agent",
    "command",
    "--cmd",
    "printf 'sibling secret\\n' > secret.txt; sleep 600",
    "--host",
    "loop",
    "--yes",
    "the sibling",
  );
  assert.equal(sibling.code, 0, sibling.stdout + sibling.stderr);
  const w1 = sibling.json.worker as string;
  const w1Dir = join(remote, "workers", w1);
  await waitFor("the sibling's secret", () => existsSync(join(w1Dir, "workspace", "secret.txt")), 60_000);

  const probes = probeScript("probe.txt", {
    siblingEnv: `cat ${w1Dir}/launch.env`,
    siblingSecret: `cat ${w1Dir}/workspace/secret.txt`,
    siblingBackdoor: `echo evil > ${w1Dir}/workspace/backdoor`,
    siblingDoor: `ls ${remote}/door/${w1}`,
    siblingTask: `cat ${w1Dir}/task.md`,
    hostTmux: `test -e ${remote}/tmux.sock`,
    hostRepoWrite: `touch ${remote}/repo.git/planted`,
    userSecret: `cat ${secret}`,
    homeWrite: `touch ${g.host.remoteHome}/planted`,
    outsideWorkspace: "touch ../planted",
    ownTask: "cat ../task.md",
    ownEnvWrite: "echo x >> ../launch.env",
    scratch: 'echo x > "$TMPDIR/s" && test -s "$TMPDIR/s"',
    hostTmp: `test -e ${hostTmpFile}`,
    ownCommit:
      "echo committed > own.txt && git add own.txt && git -c user.name=w -c user.email=w@example.com commit -qm own && git log --oneline | grep -q own",
    agentList: "ssh-add -l",
  });
  const script = [
    probes,
    'echo body | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary probed --call-id p1 > /dev/null 2>&1',
    "sleep 600",
  ].join("\n");
  const spawned = human.run("spawn", "--agent", "command", "--cmd", script, "--host", "loop", "--yes", "the prober");
  assert.equal(spawned.code, 0, spawned.stdout + spawned.stderr);
  const w2 = spawned.json.worker as string;
  const w2Dir = join(remote, "workers", w2);
  await waitFor(
    "the prober's deliverable through its own door",
    () =>
      (human.run("ls").json.workers as { worker: string; deliverable: string | null }[]).find(
        (x) => x.worker === w2 && x.deliverable?.endsWith(":1"),
      ),
    90_000,
  );
  const seen = parse(readFileSync(join(w2Dir, "workspace", "probe.txt"), "utf8"));
  assert.deepEqual(seen, {
    agent: "unset",
    display: "unset",
    siblingEnv: "no",
    siblingSecret: "no",
    siblingBackdoor: "no",
    siblingDoor: "no",
    siblingTask: "no",
    hostTmux: "no",
    hostRepoWrite: "no",
    userSecret: "no",
    homeWrite: "no",
    outsideWorkspace: "no",
    ownTask: "yes",
    ownEnvWrite: "no",
    scratch: "yes",
    hostTmp: "no",
    ownCommit: "yes",
    agentList: "no",
  });
  assert.ok(!existsSync(join(w1Dir, "workspace", "backdoor")), "nothing planted in the sibling's workspace");
  assert.ok(!existsSync(join(remote, "repo.git", "planted")) && !existsSync(join(g.host.remoteHome, "planted")));
  assert.ok(!existsSync(join(w2Dir, "planted")));

  for (const w of [w1, w2]) {
    const shown = human.run("show", w);
    assert.equal(shown.code, 0, shown.stdout);
    assert.equal(shown.json.contained, true, `${w} is shown contained`);
  }
  // ssh is a boundary: the host's tmux server holds no agent or display, and the human's own forward was never made.
  assert.doesNotMatch(hostTmuxEnv(g), /^(SSH_AUTH_SOCK|DISPLAY|XAUTHORITY|WAYLAND_DISPLAY)=/m);
  assert.ok(!existsSync(human.userForward), "the forward the human's config lists is not made on Docket's connection");
  // The worker's commit is in its own git, not the host's repository.
  const own = spawnSync("git", ["--git-dir", join(w2Dir, "git"), "log", "--format=%s", "-1"], { encoding: "utf8" });
  assert.equal(own.stdout.trim(), "own");

  // A respawn is contained again: generation 2's socket is forwarded into the same door directory, its git kept.
  const headBefore = readFileSync(join(w1Dir, "git", "HEAD"), "utf8");
  const respawned = human.run("respawn", w1);
  assert.equal(respawned.code, 0, respawned.stdout + respawned.stderr);
  await waitFor("generation 2's forwarded door", () => existsSync(join(remote, "door", w1, "2.sock")), 60_000);
  assert.equal(human.run("show", w1).json.contained, true);
  assert.equal(readFileSync(join(w1Dir, "git", "HEAD"), "utf8"), headBefore);

  for (const w of [w1, w2]) assert.equal(human.run("delete", w, "--yes", "--force").code, 0);
  assert.ok(!existsSync(w2Dir) && !existsSync(join(remote, "door", w2)));
});

test("a host whose bubblewrap cannot run: required refuses by name and writes nothing; auto runs there uncontained, says why, and still forwards no agent", {
  timeout: 180_000,
}, async (t) => {
  const fake = mkdtempSync(join(tmpdir(), "docket-fake-bwrap-"));
  chmodSync(fake, 0o755);
  writeFileSync(
    join(fake, "bwrap"),
    "#!/bin/sh\necho 'bwrap: No permissions to creat new namespace, likely because the kernel does not allow non-privileged user namespaces' >&2\nexit 1\n",
    { mode: 0o755 },
  );
  // The host's sshd stops in an `after` hook registered before the teardown's (which removes directories once every
  // process naming them has exited), so this directory joins the teardown only after the host exists.
  const g = await remoteGround(t, { path: `${fake}:/usr/local/bin:/usr/bin:/bin` });
  teardown(t).dir(fake);
  const human = humanWithAgent(t, g, "required");

  const check = human.run("hosts", "check", "loop");
  assert.equal(check.code, 0, check.stdout + check.stderr);
  assert.equal(check.json.sandbox.contained, false);
  assert.match(check.json.sandbox.reason, /cannot create namespaces/);
  assert.match(check.json.sandbox.fix, /user namespaces/);

  const refused = human.run("spawn", "--agent", "command", "--cmd", "sleep 600", "--host", "loop", "--yes", "refused");
  assert.equal(refused.code, 1, refused.stdout);
  assert.equal(refused.json.error.code, "host-sandbox-unavailable");
  assert.match(refused.json.error.message, /host loop cannot contain workers: .*nothing was started/);
  assert.deepEqual(human.run("ls").json.workers, []);
  assert.ok(
    !existsSync(join(g.host.remoteDir, "workers")) ||
      spawnSync("ls", ["-A", join(g.host.remoteDir, "workers")]).stdout.length === 0,
  );

  const configFile = join(g.home, "config.json");
  writeFileSync(configFile, JSON.stringify({ ...JSON.parse(readFileSync(configFile, "utf8")), sandbox: "auto" }));
  const script = `${probeScript("../probe.txt", {
    agentList: "ssh-add -l",
    // Any agent socket a forward would have made on the host (sshd puts them under /tmp/ssh-*), with keys in it.
    anyAgent: 'for s in /tmp/ssh-*/agent.*; do SSH_AUTH_SOCK="$s" ssh-add -l && exit 0; done; exit 1',
  })}; sleep 600`;
  const spawned = human.run("spawn", "--agent", "command", "--cmd", script, "--host", "loop", "--yes", "uncontained");
  assert.equal(spawned.code, 0, spawned.stdout + spawned.stderr);
  assert.match(
    JSON.stringify(spawned.json.summary),
    /Contained: no \(host loop cannot contain workers: bubblewrap cannot create namespaces on the host: bwrap: No permissions/,
    "auto says why not",
  );
  const w = spawned.json.worker as string;
  const probe = join(g.host.remoteDir, "workers", w, "probe.txt");
  await waitFor(
    "the uncontained worker's probe",
    () => existsSync(probe) && readFileSync(probe, "utf8").includes("anyAgent="),
    60_000,
  );
  // Uncontained, it could read an agent socket if one were there: ssh forwards none.
  assert.deepEqual(parse(readFileSync(probe, "utf8")), {
    agent: "unset",
    display: "unset",
    agentList: "no",
    anyAgent: "no",
  });
  const shown = human.run("show", w);
  assert.equal(shown.json.contained, false);
  assert.doesNotMatch(hostTmuxEnv(g), /^SSH_AUTH_SOCK=/m);
  assert.equal(human.run("delete", w, "--yes", "--force").code, 0);
});

test("a contained worker that rewrites its workspace's .git to a git dir of its own runs nothing when Docket captures its work on the host", {
  timeout: 180_000,
}, async (t) => {
  const g = await remoteGround(t);
  const human = humanWithAgent(t, g, "required");
  const marker = `${g.host.remoteDir}-filter-ran`;
  t.after(() => rmSync(marker, { force: true }));
  // Its own git dir is writable to it: a config whose clean filter and fsmonitor would run a command as the host's
  // user, outside the sandbox, if Docket's `git add -A` took the workspace's word for where its git dir is.
  const plant = [
    'gd="$GIT_DIR"',
    `git config -f "$gd/config" filter.evil.clean "sh -c 'touch ${marker}; cat'"`,
    `git config -f "$gd/config" core.fsmonitor "sh -c 'touch ${marker}'"`,
    'printf "gitdir: %s\\n" "$gd" > .git',
    "printf '* filter=evil\\n' > .gitattributes",
    "printf 'edited\\n' >> a.txt",
    'echo body | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary planted --call-id p1 > done.out 2>&1',
    "sleep 600",
  ].join("\n");
  const spawned = human.run("spawn", "--agent", "command", "--cmd", plant, "--host", "loop", "--yes", "planter");
  assert.equal(spawned.code, 0, spawned.stdout + spawned.stderr);
  const w = spawned.json.worker as string;
  const out = join(g.host.remoteDir, "workers", w, "workspace", "done.out");
  await waitFor(
    "the planter's done to return",
    () => existsSync(out) && readFileSync(out, "utf8").endsWith("\n"),
    90_000,
  );
  assert.ok(!existsSync(marker), "no filter or fsmonitor of the worker's ran on the host");
  const diff = human.run("diff", w);
  assert.equal(diff.code, 0, diff.stdout + diff.stderr);
  assert.match(diff.stdout, /edited/, "its change set was still taken, by Docket's own pinned git");
  assert.equal(human.run("delete", w, "--yes", "--force").code, 0);
});

test("a scripted pi worker contained on a host edits its workspace and publishes through its own door; its session stays there", {
  timeout: 240_000,
}, async (t) => {
  const g = await remoteGround(t);
  const human = humanWithAgent(t, g, "required");
  writeUngatedKind(g.home);
  const steps = join(g.root, "steps.json");
  writeFileSync(
    steps,
    JSON.stringify([
      {
        text: "Editing.",
        toolCall: { name: "write", arguments: { path: "a.txt", content: "one\nby contained pi\n" } },
      },
      {
        text: "Trying the sibling's place.",
        toolCall: {
          name: "bash",
          arguments: { command: `ls ${g.host.remoteDir}/workers > seen.txt 2>&1; echo "$TMPDIR" >> seen.txt` },
        },
      },
      { text: "Done.", toolCall: { name: "docket_done", arguments: { outcome: "completed", summary: "edited" } } },
    ]),
  );
  const spawned = human.run("spawn", "--scripted", steps, "--as", UNGATED_KIND, "--host", "loop", "edit a.txt");
  assert.equal(spawned.code, 0, spawned.stdout + spawned.stderr);
  const w = spawned.json.worker as string;
  await waitFor(
    "v1 from contained pi on the host",
    () =>
      (human.run("ls").json.workers as { worker: string; deliverable: string | null }[]).find(
        (x) => x.worker === w && x.deliverable?.endsWith(":1"),
      ),
    120_000,
  );
  assert.equal(human.run("show", w).json.contained, true);
  assert.match(human.run("diff", w).stdout, /by contained pi/);
  const remoteWorker = join(g.host.remoteDir, "workers", w);
  // Inside, Docket's host directory is empty but for its own places: `workers` holds only itself.
  assert.equal(
    readFileSync(join(remoteWorker, "workspace", "seen.txt"), "utf8"),
    `${w}\n${join(remoteWorker, "scratch")}\n`,
  );
  assert.ok(
    readdirSync(join(remoteWorker, "session")).some((p) => p.endsWith(".jsonl")),
    "pi's session is kept on the host",
  );
  assert.equal(human.run("delete", w, "--yes", "--force").code, 0);
});
