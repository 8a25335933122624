// What scripted token usage must show as: the totals of each model reply, priced from pi-ai's registry, for the spend
// tests of the real agents (a test names the replies; the agent's own records must add up to exactly this).

import assert from "node:assert/strict";
import { addTotals, EMPTY_TOTALS, formatCost, formatSpend } from "../../src/domain/workers/spend.js";
import type { AgentGround } from "./agent-worker.js";
import { modelPrices } from "../../src/substrate/model-prices.js";
import type { ScriptedUsage } from "./fake-model-server.js";

export type Totals = typeof EMPTY_TOTALS;

/** `totals(reply)` for one scripted reply at the model's registry price; `sum` adds them up as Docket does. */
export function pricedUsage(
  provider: string,
  model: string,
): { totals(u: Required<ScriptedUsage>): Totals; sum(a: Totals, b: Totals): Totals } {
  const prices = modelPrices(provider, model);
  assert.ok(prices, `pi-ai's registry prices ${provider}/${model}`);
  const cost = (u: Required<ScriptedUsage>) =>
    (u.input * prices.input +
      u.output * prices.output +
      u.cacheRead * prices.cacheRead +
      u.cacheWrite * prices.cacheWrite) /
    1e6;
  return {
    totals: (u) => ({
      ...EMPTY_TOTALS,
      ...u,
      total: u.input + u.output + u.cacheRead + u.cacheWrite,
      costUsd: cost(u),
    }),
    sum: addTotals,
  };
}

/** A spend line as a regular expression source: its dots and dollars literal. */
const literal = (s: string) => s.replace(/[.$]/g, "\\$&");

/** w1's two versions show exactly these totals in `spend --json`, `show --json` and the verdict card (JSON and text). */
export async function assertSpendShown(
  g: AgentGround,
  v1: Totals,
  v2: Totals,
  sum: (a: Totals, b: Totals) => Totals,
): Promise<void> {
  const all = sum(v1, v2);
  const spend = await g.until("every scripted call counted", () => {
    const r = g.run("spend", "--json").json;
    return r?.total.output === all.output ? r : undefined;
  });
  assert.deepEqual(spend.rows, [{ key: "w1", ...all, cost: formatCost(all) }]);
  const show = g.run("show", "w1", "--json").json;
  assert.deepEqual(show.spend, all);
  assert.deepEqual(show.spendDetail.versions, [
    { version: 1, totals: v1 },
    { version: 2, totals: v2 },
  ]);
  assert.deepEqual(g.run("verdict", "w1", "--json").json.spend, { version: v1, worker: all });
  assert.match(
    g.run("verdict", "w1").stdout,
    new RegExp(`this version: ${literal(formatSpend(v1))}; worker so far: ${literal(formatCost(all))}`),
  );
}
