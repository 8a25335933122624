// A human's promotion in its own process, for crash tests: opens the engine, prints "ready", waits for a line on
// stdin, then runs one `promote` through the real engine and prints its result. A test may SIGKILL it after "ready".
// Usage: node promote-child.js <target> (DOCKET_HOME from the environment, cwd = the project).

import { openEngine } from "../../src/engine/open.js";
import { promote } from "../../src/engine/review/promote.js";

const [target] = process.argv.slice(2);
const ctx = openEngine({ env: process.env, cwd: process.cwd() });
process.stdout.write("ready\n");
process.stdin.once("data", () => {
  const result = promote(ctx, { target: target!, yes: true });
  ctx.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
});
