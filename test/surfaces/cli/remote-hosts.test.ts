// Hosts through the real CLI against the test's own sshd (a second Unix user): add, ls, check (tools with versions and
// what is missing), rm; a host only a project names is refused; a closed port is `host-unreachable`, never a hang,
// and a spawn refused for it writes nothing; worker.host is a user-only default that --local overrides.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { docket } from "../../support/docket-cli.js";
import { freePort, remoteGround } from "../../support/sshd.js";

test("hosts add, ls, check and rm keep hosts in the user's config; check names a missing agent; a closed port is host-unreachable", {
  timeout: 120_000,
}, async (t) => {
  const { host, repo, home, env, run } = await remoteGround(t);

  const added = run("hosts", "add", "loop", host.alias, "--dir", host.remoteDir, "--ssh-config", host.sshConfig);
  assert.equal(added.code, 0, added.stderr + added.stdout);
  assert.deepEqual(JSON.parse(readFileSync(join(home, "config.json"), "utf8")).hosts, {
    loop: { destination: "loop", dir: host.remoteDir, sshConfig: host.sshConfig },
  });
  assert.deepEqual(
    run("hosts", "ls").json.hosts.map((h: { name: string }) => h.name),
    ["loop"],
  );

  const check = run("hosts", "check", "loop", "--agent", "codex");
  assert.equal(check.code, 0, check.stderr + check.stdout);
  assert.equal(check.json.reachable, true);
  const versions = Object.fromEntries(
    check.json.tools.map((x: { tool: string; version: string | null }) => [x.tool, x.version]),
  );
  assert.match(versions.git, /^git version /);
  assert.match(versions.tmux, /^tmux /);
  assert.match(versions.node, /^v\d+/);
  assert.deepEqual(check.json.missing, ["codex"], "the host has no codex CLI: check says so, with how to install it");
  assert.match(
    check.json.tools.find((x: { tool: string }) => x.tool === "codex").install,
    /npm install -g @openai\/codex/,
  );

  const closed = await freePort();
  const deadConfig = join(host.dir, "dead_config");
  writeFileSync(
    deadConfig,
    `Host dead\n  HostName 127.0.0.1\n  Port ${closed}\n  User nobody\n  UserKnownHostsFile ${join(host.dir, "known_hosts")}\n`,
  );
  assert.equal(run("hosts", "add", "dead", "dead", "--dir", "/tmp/nowhere", "--ssh-config", deadConfig).code, 0);
  const dead = run("hosts", "check", "dead");
  assert.equal(dead.code, 0, dead.stdout);
  assert.equal(dead.json.reachable, false);
  assert.match(dead.json.error, /^host dead \(dead\) cannot be reached: .*refused/);
  const spawnDead = run(
    "spawn",
    "--agent",
    "command",
    "--cmd",
    "sleep 30",
    "--host",
    "dead",
    "--yes",
    "on a dead host",
  );
  assert.equal(spawnDead.code, 1, spawnDead.stdout + spawnDead.stderr);
  assert.equal(spawnDead.json.error.code, "host-unreachable");
  assert.deepEqual(run("ls").json.workers, [], "the refused spawn wrote no worker, not even a failed one");
  assert.ok(
    !existsSync(join(home, "fleet")) || readdirSync(join(home, "fleet")).length === 0,
    "nor a worker directory",
  );

  // worker.host is a default of the user config: spawn goes there unless --local, and says where it runs.
  const configFile = join(home, "config.json");
  const userConfig = JSON.parse(readFileSync(configFile, "utf8"));
  writeFileSync(configFile, JSON.stringify({ ...userConfig, worker: { host: "dead" } }));
  const planned = run("spawn", "--agent", "command", "--cmd", "true", "--dry-run", "planned");
  assert.ok(
    planned.json.summary.includes("Runs on: host dead (worker.host in your config; --local runs it here)"),
    planned.stdout,
  );
  const byDefault = run("spawn", "--agent", "command", "--cmd", "sleep 30", "--yes", "to the default host");
  assert.equal(byDefault.json.error.code, "host-unreachable", byDefault.stdout);
  const local = run("spawn", "--agent", "command", "--cmd", "sleep 30", "--local", "--yes", "here instead");
  assert.equal(local.code, 0, local.stdout + local.stderr);
  assert.ok(local.json.summary.includes("Runs on: this machine"), local.stdout);
  assert.equal(run("ls").json.workers.find((w: { worker: string }) => w.worker === local.json.worker).host, undefined);
  assert.equal(run("delete", local.json.worker, "--yes", "--force").code, 0);
  assert.equal(
    run("spawn", "--agent", "command", "--cmd", "true", "--local", "--host", "dead", "both").json.error.code,
    "bad-flag",
  );
  writeFileSync(configFile, JSON.stringify(userConfig));

  const bad = docket({ env, cwd: repo }, "--json", "hosts", "add", "--", "evil", "-oProxyCommand=touch /tmp/x");
  assert.equal(bad.code, 2);
  assert.equal(bad.json.error.code, "bad-destination");

  mkdirSync(join(repo, ".docket"));
  writeFileSync(
    join(repo, ".docket", "config.json"),
    JSON.stringify({ hosts: { cloned: { destination: "attacker.example" } }, worker: { host: "loop" } }),
  );
  const fromProject = run("spawn", "--agent", "command", "--cmd", "sleep 30", "--host", "cloned", "--yes", "a task");
  assert.equal(fromProject.code, 1);
  assert.equal(fromProject.json.error.code, "host-from-project");
  // Nor may a project choose the default host: its worker.host is ignored, with a warning.
  const projectDefault = docket(
    { env, cwd: repo },
    "spawn",
    "--agent",
    "command",
    "--cmd",
    "true",
    "--dry-run",
    "--json",
    "plan",
  );
  assert.ok(projectDefault.json.summary.includes("Runs on: this machine"), projectDefault.stdout);
  assert.match(
    projectDefault.stderr,
    /worker\.host ignored: only your user config may choose the machine workers run on/,
  );
  assert.ok(
    !run("hosts", "ls").json.hosts.some((h: { name: string }) => h.name === "cloned"),
    "a project's host is never listed as one",
  );

  assert.equal(run("hosts", "rm", "dead").code, 0);
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(home, "config.json"), "utf8")).hosts), ["loop"]);
  assert.equal(run("hosts", "rm", "dead").json.error.code, "unknown-host");
});
