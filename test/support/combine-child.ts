// A human's `docket combine` in its own process, for crash tests: opens the engine, prints "ready", waits for a line
// on stdin, then combines the two workers through the real engine and prints the result. A test SIGKILLs it mid-way.
// Usage: node combine-child.js <a> <b> (DOCKET_HOME from the environment, cwd = the project).

import { openEngine } from "../../src/engine/open.js";
import { combineChangeSets } from "../../src/engine/review/combine.js";

const [a, b] = process.argv.slice(2);
const ctx = openEngine({ env: process.env, cwd: process.cwd() });
process.stdout.write("ready\n");
process.stdin.once("data", () => {
  const result = combineChangeSets(ctx, { sources: [a!, b!] });
  ctx.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
});
