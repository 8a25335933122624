// Benchmark: where a worker runs and whether it is contained, in one run on the loopback sshd the tests use:
// spawn → first heartbeat and a `done` round trip for local and host workers, contained (bubblewrap here, or the
// host's own) and not. Rounds interleave the four places so load hits each alike. Prints figures; never asserts.
// Needs root (it makes the host's user).

import { join } from "node:path";
import { docketAsync } from "../test/support/docket-cli.js";
import { runRemote } from "../src/substrate/ssh/connection.js";
import { probeHostSandbox } from "../src/substrate/ssh/host-sandbox.js";
import { figure } from "./support/figure.js";
import { line, loopHostBench } from "./support/loop-host.js";

/** The worker: one heartbeat (marked), an edit, one timed `done` — all inside its workspace, which a contained one may write. */
const SCRIPT = [
  '"$DOCKET_NODE" "$DOCKET_BIN" worker heartbeat > /dev/null 2>&1; echo up > hb.txt',
  "printf 'bench\\n' >> a.txt",
  's=$(date +%s%N); echo body | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary v1 --call-id d1 > /dev/null 2>&1; e=$(date +%s%N)',
  "echo $(( (e - s) / 1000000 )) > done-ms.txt",
  "sleep 600",
].join("\n");

const g = await loopHostBench();
const { host, repo, home, env } = g;
const run = (sandbox: "auto" | "off", ...args: string[]) =>
  docketAsync({ env: { ...env, DOCKET_SANDBOX: sandbox }, cwd: repo }, ...args, "--json");

interface Place {
  name: string;
  remote: boolean;
  contained: boolean;
}
const PLACES: Place[] = [
  { name: "local", remote: false, contained: false },
  { name: "local contained", remote: false, contained: true },
  { name: "host", remote: true, contained: false },
  { name: "host contained", remote: true, contained: true },
];

/** The worker's workspace: under this machine's home, or under the host's directory. */
const workspaceOf = (w: string, remote: boolean) =>
  remote ? join(host.remoteDir, "workers", w, "workspace") : join(home, "fleet", w, "workspace");

interface Sample {
  worker: string;
  heartbeatMs: number;
  doneMs: number;
}

async function one(place: Place): Promise<Sample> {
  const t0 = performance.now();
  const r = await run(
    place.contained ? "auto" : "off",
    "spawn",
    "--agent",
    "command",
    "--cmd",
    SCRIPT,
    ...(place.remote ? ["--host", "loop"] : []),
    "--yes",
    place.name,
  );
  if (r.code !== 0) throw new Error(r.stdout + r.stderr);
  const w = JSON.parse(r.stdout).worker as string;
  const shown = JSON.parse((await run("off", "show", w)).stdout) as { contained?: boolean };
  if (Boolean(shown.contained) !== place.contained)
    throw new Error(`${w} (${place.name}) is ${shown.contained ? "" : "not "}contained`);
  await line(join(workspaceOf(w, place.remote), "hb.txt"));
  const heartbeatMs = performance.now() - t0;
  const doneMs = Number(await line(join(workspaceOf(w, place.remote), "done-ms.txt")));
  return { worker: w, heartbeatMs, doneMs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ROUNDS = 7;
const samples = new Map<string, Sample[]>(PLACES.map((p) => [p.name, []]));
for (let i = 0; i < ROUNDS; i++) {
  for (const place of PLACES) {
    const s = await one(place);
    samples.get(place.name)!.push(s);
    await run("off", "delete", s.worker, "--yes", "--force"); // the fleet cap never fills
  }
}
const beat = (name: string) => median(samples.get(name)!.map((s) => s.heartbeatMs));
const done = (name: string) => median(samples.get(name)!.map((s) => s.doneMs));
const ms = (x: number) => `${Math.round(x)} ms`;
const pct = (a: number, b: number) => `${a >= b ? "+" : ""}${Math.round(((a - b) / b) * 100)} %`;
for (const place of PLACES)
  console.log(
    `  ${place.name.padEnd(16)} spawn → first heartbeat ${ms(beat(place.name))} · done round trip ${ms(done(place.name))} (median of ${ROUNDS})`,
  );
console.log(
  `  containment on the host adds ${pct(beat("host contained"), beat("host"))} to spawn → heartbeat, ${pct(done("host contained"), done("host"))} to done; here ${pct(beat("local contained"), beat("local"))} and ${pct(done("local contained"), done("local"))}`,
);
figure({
  id: "places-host-contained-heartbeat",
  label: "spawn → first heartbeat, contained on the loopback host",
  value: beat("host contained"),
  unit: "ms",
  baseline: { label: "uncontained on the host", value: beat("host") },
});
figure({
  id: "places-host-contained-done",
  label: "a done round trip, contained on the loopback host",
  value: done("host contained"),
  unit: "ms",
  baseline: { label: "uncontained on the host", value: done("host") },
});
figure({
  id: "places-local-contained-heartbeat",
  label: "spawn → first heartbeat, contained here",
  value: beat("local contained"),
  unit: "ms",
  baseline: { label: "uncontained here", value: beat("local") },
});
figure({
  id: "places-local-contained-done",
  label: "a done round trip, contained here",
  value: done("local contained"),
  unit: "ms",
  baseline: { label: "uncontained here", value: done("local") },
});

// What containment adds to a launch on the host, apart from the whole spawn's noise: the one extra ssh call (the
// host's bubblewrap test run, asked once per process) beside a bare call over the same master.
const { target } = g;
const timed = (fn: () => unknown) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const bare: number[] = [];
const probe: number[] = [];
for (let i = 0; i < 15; i++) {
  bare.push(timed(() => runRemote(target, ["true"])));
  probe.push(timed(() => probeHostSandbox(target)));
}
console.log(
  `  the host's bubblewrap test run over ssh ${ms(median(probe))} · a bare call over the same master ${ms(median(bare))} (median of 15)`,
);
figure({
  id: "places-host-sandbox-probe",
  label: "the host's bubblewrap test run over ssh (once per process)",
  value: median(probe),
  unit: "ms",
  baseline: { label: "a bare ssh call over the master", value: median(bare) },
});

await g.finish();
