// A worker process for crash and concurrency tests: reports on the given items in a loop through the real engine.
// Usage: node report-child.js <worker> <generation> <runToken> <item>... (DOCKET_HOME from the environment).
// Prints one JSON line {results} when it finishes; a test may SIGKILL it at any moment before that.

import { openEngine } from "../../src/engine/open.js";
import { report, type ReportEntryResult } from "../../src/engine/protocol/report.js";

const [worker, generation, runToken, ...items] = process.argv.slice(2);
const ctx = openEngine({ env: process.env, cwd: process.cwd() });
const who = { worker: worker!, generation: Number(generation), runToken: runToken! };
const outcomes = ["done", "abandoned", "released"] as const;
const results: ReportEntryResult[] = [];
items.forEach((item, i) => {
  if (i % 4 === 3)
    report(ctx, who, { item, outcome: "blocked", body: `blocked on ${item}`, callId: `${item}:blocked` });
  const outcome = outcomes[i % 3]!;
  results.push(
    report(ctx, who, {
      item,
      outcome,
      body: `${outcome} ${item}`,
      callId: item,
      evidence: [{ kind: "note", text: "child" }],
    }),
  );
});
ctx.close();
process.stdout.write(`${JSON.stringify({ results })}\n`);
