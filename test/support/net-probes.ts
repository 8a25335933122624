// The network boundary's probes, shared by the local and host tests: the machine's services a contained worker must
// not reach (an abstract socket, a loopback port) and one it may (an HTTP server put on its allow list), a probe
// script whose lines say `<name> ESCAPED` or `<name> blocked`, and the parse of what it wrote.

import { createServer as createHttpServer } from "node:http";
import { createServer, type AddressInfo, type Server } from "node:net";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { assertExit, type CliRun } from "./docket-cli.js";
import { waitFor } from "./wait.js";
import type { Hooks } from "./teardown.js";

export async function listening(t: Hooks, server: Server, at: string | number): Promise<void> {
  await new Promise<void>((ok) =>
    typeof at === "number" ? server.listen(at, "127.0.0.1", ok) : server.listen(at, ok),
  );
  t.after(() => void server.close());
}

/** A loopback service of the machine that has nothing to do with the worker; its port. */
export async function privateService(t: Hooks): Promise<number> {
  const service = createServer((s) => s.end("private\n"));
  await listening(t, service, 0);
  return (service.address() as AddressInfo).port;
}

/** The machine's services a worker must not reach, and an HTTP server (answering ALLOWED-BODY) for its allow list. */
export async function machineServices(
  t: Hooks,
): Promise<{ abstract: string; servicePort: number; allowedPort: number }> {
  const abstract = `docket-net-test-${randomBytes(4).toString("hex")}`;
  await listening(
    t,
    createServer((s) => s.end()),
    `\0${abstract}`,
  );
  const allowed = createHttpServer((_req, res) => res.end("ALLOWED-BODY\n"));
  await listening(t, allowed as unknown as Server, 0);
  return { abstract, servicePort: await privateService(t), allowedPort: (allowed.address() as AddressInfo).port };
}

/** A shell check that connects to `target` (node's `net.connect` arguments) with the worker's node. */
export const nodeConnect = (target: string) =>
  `"$DOCKET_NODE" -e 'const s = require("net").connect(${target}); s.on("connect", () => process.exit(0)); s.on("error", () => process.exit(1))'`;

/** The script's lines: each probe's verdict into `$TMPDIR/results` (moved there whole), then it stays up. */
export function probeLines(probes: Record<string, string>): string[] {
  const lines = ['out="$TMPDIR/results.tmp"', ': > "$out"'];
  for (const [name, cmd] of Object.entries(probes))
    lines.push(
      `if ( ${cmd} ) >/dev/null 2>&1; then echo "${name} ESCAPED" >> "$out"; else echo "${name} blocked" >> "$out"; fi`,
    );
  lines.push('mv "$out" "$TMPDIR/results"');
  return lines;
}

/** Spawns the prober (`spawn` with `args`); its worker and its results, read from `resultsOf(worker)` once there. */
export async function spawnProber(
  run: (...args: string[]) => CliRun,
  args: readonly string[],
  resultsOf: (worker: string) => string,
): Promise<{ worker: string; results: Record<string, string> }> {
  const r = run("spawn", ...args);
  assertExit(r, 0);
  const worker = r.json.worker as string;
  return { worker, results: await probeResults(worker, resultsOf(worker)) };
}

/** `{name: "ESCAPED" | "blocked"}` once the worker's results file is there (it is moved into place whole). */
async function probeResults(worker: string, file: string): Promise<Record<string, string>> {
  const text = await waitFor(
    `${worker}'s probes`,
    () => (existsSync(file) ? readFileSync(file, "utf8") : undefined),
    120_000,
    200,
  );
  return Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((l) => l.split(" ") as [string, string]),
  );
}
