// The network boundary on a host, with the test's own sshd and the host's real bubblewrap: a contained command worker
// there has a network namespace of its own (no loopback service, abstract socket or /proc/net/unix of the machine) and
// reaches out only through this door's egress proxy, over a socket forwarded beside its door — an allowed host answers,
// a name not allowed is refused, recorded and told once. Under `none` it has no way out and no proxy variables.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { machineServices, nodeConnect, privateService, probeLines, spawnProber } from "../support/net-probes.js";
import { AS_CONFIGURED, docket } from "../support/docket-cli.js";
import { addLoopHost, remoteGround, type RemoteGround } from "../support/sshd.js";
import type { Hooks } from "../support/teardown.js";
import { waitFor } from "../support/wait.js";

/** A host `loop` whose workers are contained (`required`) under the given network setting, the CLI as configured. */
async function hostGround(t: Hooks, network: unknown): Promise<RemoteGround> {
  const g = await remoteGround(t);
  addLoopHost(g);
  const configFile = join(g.home, "config.json");
  const config = JSON.parse(readFileSync(configFile, "utf8"));
  writeFileSync(configFile, JSON.stringify({ ...config, sandbox: { mode: "required", network } }));
  const env = { ...g.env, ...AS_CONFIGURED };
  return { ...g, env, run: (...args) => docket({ env, cwd: g.repo }, ...args, "--json") };
}

/** Runs each probe in a contained command worker on the host; `<name> ESCAPED` or `<name> blocked` per probe. */
async function probeOnHost(g: RemoteGround, probes: Record<string, string>) {
  const lines = [...probeLines(probes), "sleep 600"];
  return spawnProber(
    g.run,
    ["--agent", "command", "--cmd", lines.join("\n"), "--host", "loop", "--yes", "probe"],
    (w) => join(g.host.remoteDir, "workers", w, "scratch", "results"),
  );
}

test("a contained worker on a host (network allow): its own namespace there; out only through this door's proxy, every request recorded", {
  timeout: 240_000,
}, async (t) => {
  const { abstract, servicePort, allowedPort } = await machineServices(t);
  const g = await hostGround(t, { mode: "allow", allow: [`127.0.0.1:${allowedPort}`] });
  const { worker, results } = await probeOnHost(g, {
    "abstract-socket": nodeConnect(JSON.stringify(`\0${abstract}`)),
    "loopback-service": nodeConnect(`${servicePort}, "127.0.0.1"`),
    "loopback-via-proxy": `curl -sf --max-time 20 http://127.0.0.1:${servicePort}/`,
    "proc-net-unix": `grep -q ${abstract} /proc/net/unix`,
    "not-allowed-name": "curl -sf --max-time 20 https://not-allowed.example/",
    "allowed-host": `curl -sSf --max-time 20 http://127.0.0.1:${allowedPort}/ 2>"$TMPDIR/curl.err" | grep -q ALLOWED-BODY`,
  });
  if (results["allowed-host"] !== "ESCAPED") {
    const scratch = join(g.host.remoteDir, "workers", worker, "scratch");
    console.log(readFileSync(join(scratch, "curl.err"), "utf8"));
    console.log(readFileSync(join(g.home, "fleet", worker, "session", "tunnel.pid.log"), "utf8"));
  }
  assert.deepEqual(results, {
    "abstract-socket": "blocked",
    "loopback-service": "blocked",
    "loopback-via-proxy": "blocked",
    "proc-net-unix": "blocked",
    "not-allowed-name": "blocked",
    "allowed-host": "ESCAPED",
  });
  // Its egress socket sits in its own door directory there, beside its door socket.
  assert.ok(existsSync(join(g.host.remoteDir, "door", worker, "1.egress.sock")), "the egress socket is forwarded");

  const shown = await waitFor(
    "the host worker's requests recorded here",
    () => {
      const s = g.run("show", worker).json;
      const d = s.network?.destinations ?? [];
      return d.some((x: any) => !x.allowed) && d.some((x: any) => x.allowed) ? s : undefined;
    },
    30_000,
    200,
  );
  assert.equal(shown.contained, true);
  assert.equal(shown.network.mode, "allow");
  assert.deepEqual(shown.network.allowed, [`127.0.0.1:${allowedPort}`]);
  const by = (host: string, port: number) =>
    shown.network.destinations.find((d: any) => d.host === host && d.port === port) ??
    assert.fail(`${host}:${port} not in ${JSON.stringify(shown.network.destinations)}`);
  assert.equal(by("not-allowed.example", 443).allowed, false);
  assert.equal(by("127.0.0.1", servicePort).allowed, false);
  const ok = by("127.0.0.1", allowedPort);
  assert.equal(ok.allowed, true);
  assert.ok(ok.bytesUp > 0 && ok.bytesDown > 0, "bytes counted both ways");
  const attention = g.run("attention").json;
  const lines = (attention.notifications ?? attention).filter(
    (n: any) => n.kind === "egress-refused" && n.worker === worker,
  );
  assert.equal(lines.length, 2, JSON.stringify(lines));
  assert.ok(lines.some((n: any) => n.body.includes("not-allowed.example:443")));

  assert.equal(g.run("delete", worker, "--yes", "--force").code, 0);
  assert.ok(!existsSync(join(g.host.remoteDir, "door", worker)), "its sockets leave the host");
});

test('network "none" on a host: no relay, no proxy variables, no way out', { timeout: 180_000 }, async (t) => {
  const port = await privateService(t);
  const g = await hostGround(t, "none");
  const { worker, results } = await probeOnHost(g, {
    "loopback-service": nodeConnect(`${port}, "127.0.0.1"`),
    "proxy-variable": 'test -n "$HTTPS_PROXY"',
    "curl-out": "curl -sf --max-time 10 https://example.com/",
  });
  assert.deepEqual(results, { "loopback-service": "blocked", "proxy-variable": "blocked", "curl-out": "blocked" });
  const shown = g.run("show", worker).json;
  assert.equal(shown.network.mode, "none");
  assert.ok(!existsSync(join(g.host.remoteDir, "door", worker, "1.egress.sock")), "nothing forwarded for egress");
});

test('network "none" on a host: a pi worker that needs its model API is refused by that name, its tunnel never started', {
  timeout: 120_000,
}, async (t) => {
  const g = await hostGround(t, "none");
  // A pi model of the user's own provider (pi's models.json), on the network.
  const agentDir = join(g.root, "pi-agent");
  mkdirSync(agentDir, { recursive: true });
  const models = {
    lab: { baseUrl: "https://llm.lab.example/v1", api: "openai-completions", apiKey: "k", models: [{ id: "m1" }] },
  };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: models }));
  const env = { ...g.env, PI_CODING_AGENT_DIR: agentDir };
  const r = docket(
    { env, cwd: g.repo },
    "spawn",
    "--agent",
    "pi",
    "--model",
    "lab/m1",
    "--host",
    "loop",
    "--yes",
    "t",
    "--json",
  );
  assert.notEqual(r.code, 0, r.stdout);
  assert.equal(r.json.error.code, "network-none-model-api", JSON.stringify(r.json));
  assert.match(r.json.error.message, /pi needs its model API at llm\.lab\.example:443/);
  assert.ok(!existsSync(join(g.home, "fleet", "w1", "session", "tunnel.pid")), "no tunnel keeper was started");
});
