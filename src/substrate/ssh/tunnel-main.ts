// The tunnel keeper's process (`node tunnel-main.js <spec>`): once a second, if the host's master is new or gone,
// re-make it and put the worker's door forward back, so a call retried by the worker lands once the link is back.
// It stops when its lease (pid file) is gone or names another process, and cancels its forward on the way out.

import { writeFileSync } from "node:fs";
import { cancelForward, forward, leaseHolder, masterPid, type TunnelSpec } from "./tunnel.js";

const spec = JSON.parse(process.argv[2] ?? "{}") as TunnelSpec;
writeFileSync(spec.pidFile, `${process.pid}\n`, { mode: 0o600 });

let forwardedOn: number | undefined;
let stopping = false;
process.on("SIGTERM", () => void (stopping = true));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (;;) {
  if (stopping || leaseHolder(spec.pidFile) !== process.pid) break;
  try {
    const pid = masterPid(spec.target);
    if (pid === undefined || pid !== forwardedOn) {
      if (forward(spec)) forwardedOn = masterPid(spec.target);
      else forwardedOn = undefined;
      process.stderr.write(
        `${new Date().toISOString()} forward ${forwardedOn === undefined ? "failed" : `up on master ${forwardedOn}`}\n`,
      );
    }
  } catch (error) {
    // The host is unreachable right now: the worker's calls wait (bounded) and this keeper tries again next round.
    forwardedOn = undefined;
    process.stderr.write(`${new Date().toISOString()} ${(error as Error).message}\n`);
  }
  await sleep(stopping ? 0 : 1_000);
}
cancelForward(spec);
