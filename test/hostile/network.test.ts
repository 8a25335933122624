// The network boundary with real bubblewrap: a contained command worker in its own network namespace probes
// an abstract socket, a loopback port, /proc/net/unix, the door's state file and a name not allowed — all refused, the
// refusal recorded (show --json, one attention line) — while a host on its allow list answers through Docket's proxy.

import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { machineServices, nodeConnect, privateService, probeLines, spawnProber } from "../support/net-probes.js";
import { cliGround } from "../support/cli-workers.js";
import type { CliRun } from "../support/docket-cli.js";
import { waitFor } from "../support/wait.js";

interface Ground {
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
  run(...args: string[]): CliRun;
}

function ground(t: { after(fn: () => void): void }, sandbox: Record<string, unknown>): Ground {
  const g = cliGround(t, {
    prefix: "docket-net-",
    sandbox: { mode: "required", ...sandbox },
    userHome: "home",
  });
  return { root: g.root, home: g.home, env: g.env, run: g.run };
}

/** Runs each probe in a contained command worker; `<name> ESCAPED` or `<name> blocked` per probe, from its scratch. */
async function probe(
  g: Ground,
  probes: Record<string, string>,
  as: string[] = [],
): Promise<{ worker: string; results: Record<string, string> }> {
  const lines = ["#!/bin/sh", ...probeLines(probes), "exec sleep 600"];
  const script = join(g.root, `probe-${randomBytes(3).toString("hex")}.sh`);
  writeFileSync(script, `${lines.join("\n")}\n`);
  chmodSync(script, 0o755);
  return spawnProber(g.run, ["--agent", "command", "--cmd", script, ...as, "probe", "--json"], (w) =>
    join(g.home, "fleet", w, "scratch", "results"),
  );
}

test("a contained worker (network allow) reaches no abstract socket, loopback service, /proc/net/unix or door state; a name not allowed is refused, recorded and told once; an allowed host answers through the proxy", {
  timeout: 180_000,
}, async (t) => {
  const { abstract, servicePort, allowedPort } = await machineServices(t);

  const g = ground(t, { network: { mode: "allow", allow: [`127.0.0.1:${allowedPort}`] } });
  const doorPrivate = join(g.home, "door-control");
  const { worker, results } = await probe(g, {
    "abstract-socket": nodeConnect(JSON.stringify(`\0${abstract}`)),
    "loopback-service": nodeConnect(`${servicePort}, "127.0.0.1"`),
    "loopback-via-proxy": `curl -sf --max-time 20 http://127.0.0.1:${servicePort}/`,
    "proc-net-unix": `grep -q ${abstract} /proc/net/unix`,
    // The door starts (and writes its state) after the worker launched: hidden by directory, not by file.
    "door-state": `cat ${join(doorPrivate, "state.json")}`,
    "door-private-listing": `test -n "$(ls -A ${doorPrivate})"`,
    "not-allowed-name": "curl -sf --max-time 20 https://not-allowed.example/",
    "not-allowed-again": "curl -sf --max-time 20 http://not-allowed.example/x",
    "allowed-host": `curl -sf --max-time 20 http://127.0.0.1:${allowedPort}/ | grep -q ALLOWED-BODY`,
  });
  if (results["allowed-host"] !== "ESCAPED")
    console.log(readFileSync(join(g.home, "fleet", worker, "scratch", "curl.err"), "utf8"));
  assert.deepEqual(results, {
    "abstract-socket": "blocked",
    "loopback-service": "blocked",
    "loopback-via-proxy": "blocked",
    "proc-net-unix": "blocked",
    "door-state": "blocked",
    "door-private-listing": "blocked",
    "not-allowed-name": "blocked",
    "not-allowed-again": "blocked",
    "allowed-host": "ESCAPED",
  });

  // The proxy writes its tallies within a second or so: show --json carries the list and the summary.
  const shown = await waitFor(
    "the refusals recorded",
    () => {
      const s = g.run("show", worker, "--json").json;
      const refused = s.network.destinations.filter((d: any) => !d.allowed);
      return refused.length >= 2 && s.network.destinations.some((d: any) => d.allowed) ? s : undefined;
    },
    30_000,
    200,
  );
  assert.equal(shown.network.mode, "allow");
  assert.deepEqual(shown.network.allowed, [`127.0.0.1:${allowedPort}`]);
  const by = (host: string, port: number) =>
    shown.network.destinations.find((d: any) => d.host === host && d.port === port) ??
    assert.fail(`${host}:${port} not in ${JSON.stringify(shown.network.destinations)}`);
  assert.equal(by("not-allowed.example", 443).allowed, false);
  assert.equal(by("not-allowed.example", 80).allowed, false);
  assert.equal(by("127.0.0.1", servicePort).allowed, false);
  const ok = by("127.0.0.1", allowedPort);
  assert.equal(ok.allowed, true);
  assert.ok(ok.bytesUp > 0 && ok.bytesDown > 0, "bytes counted both ways");
  assert.match(g.run("show", worker).stdout, /network: allow .*refused/);
  assert.match(g.run("show", worker).stdout, /refused not-allowed\.example:443 ×1/);

  // One attention line per refused host, not one per request.
  const attention = g.run("attention", "--json").json;
  const lines = (attention.notifications ?? attention).filter((n: any) => n.kind === "egress-refused");
  assert.deepEqual(
    lines.map((n: any) => n.body.match(/reach (\S+)/)[1]).sort(),
    [`127.0.0.1:${servicePort},`, "not-allowed.example:443,"].sort(),
  );
});

test('network "none": no relay, no proxy variables, nothing reaches even an allowed-looking loopback port', {
  timeout: 120_000,
}, async (t) => {
  const port = await privateService(t);
  const g = ground(t, { network: "none", allow: [`127.0.0.1:${port}`] });
  const { worker, results } = await probe(g, {
    "loopback-service": nodeConnect(`${port}, "127.0.0.1"`),
    "proxy-variable": 'test -n "$HTTPS_PROXY"',
    "curl-out": "curl -sf --max-time 10 https://example.com/",
  });
  assert.deepEqual(results, { "loopback-service": "blocked", "proxy-variable": "blocked", "curl-out": "blocked" });
  const shown = g.run("show", worker, "--json").json;
  assert.equal(shown.network.mode, "none");
  assert.match(g.run("show", worker).stdout, /network: none/);
});

test('a kind narrows the network (network: none in its file); "open" in a project kind widens nothing', {
  timeout: 120_000,
}, async (t) => {
  const g = ground(t, { network: "allow" });
  mkdirSync(join(g.home, "kinds"), { recursive: true });
  writeFileSync(
    join(g.home, "kinds", "offline.md"),
    "---\nname: offline\ndescription: no network\nnetwork: none\n---\n",
  );
  const { worker, results } = await probe(g, { "proxy-variable": 'test -n "$HTTPS_PROXY"' }, ["--as", "offline"]);
  assert.deepEqual(results, { "proxy-variable": "blocked" });
  assert.equal(g.run("show", worker, "--json").json.network.mode, "none");
  writeFileSync(join(g.home, "kinds", "wide.md"), "---\nname: wide\ndescription: wants it all\nnetwork: open\n---\n");
  const wide = await probe(g, { "proxy-variable": 'test -n "$HTTPS_PROXY"' }, ["--as", "wide"]);
  assert.deepEqual(wide.results, { "proxy-variable": "ESCAPED" }, "still allow: the relay's variables are set");
  assert.equal(g.run("show", wide.worker, "--json").json.network.mode, "allow");
});
