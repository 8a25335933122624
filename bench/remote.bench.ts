// Benchmark: workers on a host on the loopback sshd the tests use, beside local ones in the same run:
// spawn → first heartbeat, a `done` round trip (through the forwarded door and the change set fetched over ssh), and
// 8 workers on the host spawned at once. Prints figures; never asserts. Needs root (it makes the host's user).

import { join } from "node:path";
import { docketAsync } from "../test/support/docket-cli.js";
import { figure } from "./support/figure.js";
import { line, loopHostBench } from "./support/loop-host.js";

/** The worker: one heartbeat (marked), an edit, one timed `done` (its wall time in ms, as the worker saw it). */
const SCRIPT = [
  '"$DOCKET_NODE" "$DOCKET_BIN" worker heartbeat > /dev/null 2>&1; echo up > ../hb.txt',
  "printf 'bench\\n' >> a.txt",
  's=$(date +%s%N); echo body | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary v1 --call-id d1 > /dev/null 2>&1; e=$(date +%s%N)',
  "echo $(( (e - s) / 1000000 )) > ../done-ms.txt",
  "sleep 600",
].join("\n");

const g = await loopHostBench();
const { host, repo, home, env } = g;
const run = (...args: string[]) => docketAsync({ env, cwd: repo }, ...args, "--json");

/** Where a worker's directory is: this machine's home, or the host's directory. */
const dirOf = (w: string, remote: boolean) => (remote ? join(host.remoteDir, "workers", w) : join(home, "fleet", w));

async function one(remote: boolean): Promise<{ worker: string; spawnMs: number; heartbeatMs: number; doneMs: number }> {
  const t0 = performance.now();
  const r = await run(
    "spawn",
    "--agent",
    "command",
    "--cmd",
    SCRIPT,
    ...(remote ? ["--host", "loop"] : []),
    "--yes",
    remote ? "on the host" : "here",
  );
  if (r.code !== 0) throw new Error(r.stdout + r.stderr);
  const spawnMs = performance.now() - t0;
  const w = JSON.parse(r.stdout).worker as string;
  await line(join(dirOf(w, remote), "hb.txt"));
  const heartbeatMs = performance.now() - t0;
  const doneMs = Number(await line(join(dirOf(w, remote), "done-ms.txt")));
  return { worker: w, spawnMs, heartbeatMs, doneMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ROUNDS = 3;
const local: Awaited<ReturnType<typeof one>>[] = [];
const remote: Awaited<ReturnType<typeof one>>[] = [];
for (let i = 0; i < ROUNDS; i++) {
  local.push(await one(false));
  remote.push(await one(true));
}
const ms = (x: number) => `${Math.round(x)} ms`;
console.log(
  `  spawn → first heartbeat (median of ${ROUNDS}): local ${ms(median(local.map((x) => x.heartbeatMs)))} (spawn verb ${ms(median(local.map((x) => x.spawnMs)))}) · on the loopback host ${ms(median(remote.map((x) => x.heartbeatMs)))} (spawn verb ${ms(median(remote.map((x) => x.spawnMs)))})`,
);
console.log(
  `  done round trip, as the worker timed it (median of ${ROUNDS}): local ${ms(median(local.map((x) => x.doneMs)))} · through the tunnel ${ms(median(remote.map((x) => x.doneMs)))}`,
);
figure({
  id: "remote-spawn-heartbeat",
  label: "spawn → first heartbeat on the loopback host",
  value: median(remote.map((x) => x.heartbeatMs)),
  unit: "ms",
  baseline: { label: "a local spawn", value: median(local.map((x) => x.heartbeatMs)) },
});
figure({
  id: "remote-done-round-trip",
  label: "a done round trip through the ssh tunnel",
  value: median(remote.map((x) => x.doneMs)),
  unit: "ms",
  baseline: { label: "a local done", value: median(local.map((x) => x.doneMs)) },
});

// The burst starts from an empty fleet, so the fleet cap (maxActive, 8 by default) leaves room for all of it.
for (const w of [...local, ...remote].map((x) => x.worker)) await run("delete", w, "--yes", "--force");
const BURST = 8;
const t0 = performance.now();
const burst = await Promise.all(
  Array.from({ length: BURST }, (_, i) =>
    run("spawn", "--agent", "command", "--cmd", SCRIPT, "--host", "loop", "--yes", `burst ${i}`),
  ),
);
const spawned = burst.filter((r) => r.code === 0).map((r) => JSON.parse(r.stdout).worker as string);
for (const r of burst)
  if (r.code !== 0) console.log(`  a burst spawn failed: ${(r.stdout + r.stderr).trim().split("\n")[0]}`);
const beat = await Promise.all(
  spawned.map((w) =>
    line(join(dirOf(w, true), "hb.txt")).then(
      () => true,
      () => false,
    ),
  ),
);
const started = beat.filter(Boolean).length;
const wall = performance.now() - t0;
console.log(
  `  ${BURST} workers spawned on the host at once: ${started} of ${BURST} started and made their first call, in ${ms(wall)}`,
);
figure({
  id: "remote-burst-8",
  label: `${BURST} workers spawned on the host at once: wall time until all made their first call`,
  value: wall / 1000,
  unit: "s",
});

for (const w of spawned) await run("delete", w, "--yes", "--force");
await g.finish();
