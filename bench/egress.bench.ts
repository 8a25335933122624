// Benchmark: one scripted model round trip (a streamed Messages API reply from test/support/fake-anthropic.ts) direct
// vs through the egress path a contained worker uses (the in-sandbox relay on 127.0.0.1, the proxy on a unix socket in
// its own process); the relay's memory (one per worker) and the proxy's memory with 1 and 20 workers streaming at once.
// Prints figures; never asserts.

import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { readFileSync } from "node:fs";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { startFakeAnthropic } from "../test/support/fake-anthropic.js";
import { freePort } from "../test/support/sshd.js";
import { figure } from "./support/figure.js";

const here = dirname(fileURLToPath(import.meta.url));
const RELAY = resolve(here, "..", "src", "substrate", "egress", "relay-main.js");
const PROXY = join(here, "support", "egress-proxy-child.js");
const ROUNDS = Number(process.env.DOCKET_BENCH_ROUNDS ?? 200);

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const pssMb = (pid: number) =>
  Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const BODY = JSON.stringify({
  model: "claude-bench",
  max_tokens: 64,
  stream: true,
  tools: [{ name: "Bench", input_schema: { type: "object" } }],
  messages: [{ role: "user", content: "x".repeat(2000) }],
});

/** One POST and its whole streamed reply; `via` is the relay's port (absolute-form request) or undefined (direct). */
function roundTrip(api: URL, via?: number): Promise<number> {
  const started = performance.now();
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: via ?? Number(api.port),
        method: "POST",
        path: via ? `${api.origin}/v1/messages` : "/v1/messages",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(BODY), host: api.host },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on("end", () => ok(performance.now() - started));
      },
    );
    req.on("error", fail);
    req.end(BODY);
  });
}

function started(child: ChildProcess, line: string): Promise<void> {
  return new Promise((ok, fail) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes(line)) ok();
    });
    child.on("exit", (code) => fail(new Error(`exited ${code} before "${line}"`)));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "docket-egress-bench-"));
  const model = await startFakeAnthropic([{ text: "ok ".repeat(200), again: true }]);
  const api = new URL(model.url);
  const socket = join(dir, "egress.sock");
  const proxy = spawn(process.execPath, ["--max-semi-space-size=1", PROXY, socket], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await started(proxy, "ready");
  const relays: { child: ChildProcess; port: number }[] = [];
  const relay = async (): Promise<number> => {
    const port = await freePort(); // a fixed port may be taken by another process's connection
    // The relay as a contained launch runs it: it listens, then runs the agent (here a shell that prints and waits).
    const child = spawn(
      process.execPath,
      ["--max-semi-space-size=1", RELAY, socket, String(port), "--", "sh", "-c", "echo up; exec sleep 3600"],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, DOCKET_WORKER_ID: `w${port}`, DOCKET_GENERATION: "1", DOCKET_RUN_TOKEN: "t" },
      },
    );
    await started(child, "up");
    relays.push({ child, port });
    return port;
  };
  try {
    const first = await relay();
    for (let i = 0; i < 20; i++) await roundTrip(api, first); // warm both paths
    for (let i = 0; i < 20; i++) await roundTrip(api);
    const direct: number[] = [];
    const proxied: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      direct.push(await roundTrip(api));
      proxied.push(await roundTrip(api, first));
    }
    const d = median(direct);
    const p = median(proxied);
    console.log(
      `round trip, ${ROUNDS} rounds interleaved: direct ${d.toFixed(2)} ms, through relay+proxy ${p.toFixed(2)} ms (+${(p - d).toFixed(2)} ms)`,
    );
    figure({
      id: "egress.round-trip.proxy",
      label: "a scripted model round trip through relay and proxy",
      value: p,
      unit: "ms",
      baseline: { label: "direct", value: d },
    });

    const relayPid = relays[0]!.child.pid!;
    const proxyIdle = { rss: rssMb(proxy.pid!), pss: pssMb(proxy.pid!) };
    console.log(
      `one relay (per worker, inside its sandbox): rss ${rssMb(relayPid).toFixed(1)} MB, pss ${pssMb(relayPid).toFixed(1)} MB`,
    );
    figure({
      id: "egress.relay.pss",
      label: "the relay's memory per worker (pss)",
      value: pssMb(relayPid),
      unit: "MB",
    });

    for (let i = 1; i < 20; i++) await relay();
    let peakRss = 0;
    let peakPss = 0;
    const watch = setInterval(() => {
      peakRss = Math.max(peakRss, rssMb(proxy.pid!));
      peakPss = Math.max(peakPss, pssMb(proxy.pid!));
    }, 20);
    await Promise.all(
      relays.map(async (r) => {
        for (let i = 0; i < 20; i++) await roundTrip(api, r.port);
      }),
    );
    clearInterval(watch);
    await sleep(200);
    console.log(
      `the proxy process: idle rss ${proxyIdle.rss.toFixed(1)} / pss ${proxyIdle.pss.toFixed(1)} MB; with 20 workers streaming at once peak rss ${peakRss.toFixed(1)} / pss ${peakPss.toFixed(1)} MB (+${((peakPss - proxyIdle.pss) / 20).toFixed(2)} MB pss per worker)`,
    );
    figure({
      id: "egress.proxy.per-worker",
      label: "the proxy's memory per busy worker (pss growth / 20)",
      value: (peakPss - proxyIdle.pss) / 20,
      unit: "MB",
    });
    const all = relays.map((r) => pssMb(r.child.pid!));
    console.log(
      `20 relays: pss ${all.reduce((a, b) => a + b, 0).toFixed(1)} MB together (${(all.reduce((a, b) => a + b, 0) / 20).toFixed(1)} MB each)`,
    );
  } finally {
    for (const r of relays) r.child.kill("SIGTERM");
    proxy.kill("SIGTERM");
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
