// The review page's fleet shows each worker's cost so far beside its age, as `ls` does (tokens on hover), a dash for an
// agent that keeps no usage records, and escapes every worker-written cell.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { FleetEntry } from "../../../src/engine/workers/fleet-board.js";
import { renderFleet } from "../../../src/surfaces/web/pages/fleet.js";

const entry = (over: Partial<FleetEntry>): FleetEntry => ({
  worker: "w1",
  kind: "general",
  task: "change the app",
  state: "ready",
  liveness: "live",
  generation: 1,
  questions: 0,
  deliverable: null,
  contained: false,
  spend: null,
  age: "5m",
  version: null,
  items: [],
  baseMoved: null,
  ...over,
});

test("the fleet shows cost so far per worker (tokens on hover), unknown where the agent keeps no records, and escapes the task", () => {
  const page = renderFleet(
    [
      entry({
        worker: "w1",
        spend: {
          input: 30_000,
          output: 11_200,
          cacheRead: 0,
          cacheWrite: 0,
          total: 41_200,
          costUsd: 0.19,
          unpriced: 0,
        },
      }),
      entry({ worker: "w2", task: "<img src=x onerror=alert(1)>", spend: null }),
    ],
    false,
  ).toString();
  assert.match(page, /<th>age<\/th><th>cost<\/th>/);
  assert.match(
    page,
    /data-worker="w1".*?<td class="cost" data-label="cost" title="41\.2k tokens · \$0\.19">\$0\.19<\/td>/,
  );
  assert.match(page, /data-worker="w2".*?<td class="cost" data-label="cost">unknown<\/td>/);
  assert.doesNotMatch(page, /<img/);
  assert.match(page, /&lt;img src=x onerror=alert\(1\)&gt;/);
});
