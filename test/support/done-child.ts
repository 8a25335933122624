// A worker process for crash tests: opens the engine, prints "ready", waits for a line on stdin, then runs one
// docket_done through the real engine and prints its result. A test may SIGKILL it at any moment after "ready".
// Usage: node done-child.js <worker> <generation> <runToken> <callId> (DOCKET_HOME from the environment).

import { openEngine } from "../../src/engine/open.js";
import { done } from "../../src/engine/protocol/protocol.js";

const [worker, generation, runToken, callId] = process.argv.slice(2);
const ctx = openEngine({ env: process.env, cwd: process.cwd() });
process.stdout.write("ready\n");
process.stdin.once("data", () => {
  const result = done(
    ctx,
    { worker: worker!, generation: Number(generation), runToken: runToken! },
    { callId: callId!, body: "child body", outcome: "completed", summary: "from the child" },
  );
  ctx.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
});
