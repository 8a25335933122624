// The egress proxy alone in its own process, for bench/egress.bench.ts: every connection is one worker, every host
// allowed, each request counted; prints "ready" once it listens on the socket named in argv.

import { createEgressProxy } from "../../src/substrate/egress/proxy.js";

let records = 0;
const proxy = createEgressProxy<string>({
  authorize: (line) => ({ ok: true, who: line }),
  decide: (_who, host) => ({ allowed: true, host }),
  record: () => void records++,
});
proxy.listen(process.argv[2]!, () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => process.exit(0));
