// What scripted token usage must show as: the totals of each model reply, priced from pi-ai's registry, for the spend
// tests of the real agents (a test names the replies; the agent's own records must add up to exactly this).

import assert from "node:assert/strict";
import { addTotals, EMPTY_TOTALS } from "../../src/domain/workers/spend.js";
import { modelPrices } from "../../src/substrate/model-prices.js";
import type { ScriptedUsage } from "./fake-model-server.js";

export type Totals = typeof EMPTY_TOTALS;

/** `totals(reply)` for one scripted reply at the model's registry price; `sum` adds them up as Docket does. */
export function pricedUsage(provider: string, model: string): { totals(u: Required<ScriptedUsage>): Totals; sum(a: Totals, b: Totals): Totals } {
  const prices = modelPrices(provider, model);
  assert.ok(prices, `pi-ai's registry prices ${provider}/${model}`);
  const cost = (u: Required<ScriptedUsage>) => (u.input * prices.input + u.output * prices.output + u.cacheRead * prices.cacheRead + u.cacheWrite * prices.cacheWrite) / 1e6;
  return {
    totals: (u) => ({ ...EMPTY_TOTALS, ...u, total: u.input + u.output + u.cacheRead + u.cacheWrite, costUsd: cost(u) }),
    sum: addTotals,
  };
}

/** A spend line as a regular expression source: its dots and dollars literal. */
export const literal = (s: string) => s.replace(/[.$]/g, "\\$&");
