// Usage lines of pi, Claude Code and Codex records become token counts; cost is the agent's own, else the registry's, else unknown.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  budgetStep,
  formatCost,
  parseUsageLine,
  resolveCost,
  versionOfCall,
  type ParseCarry,
} from "../../../src/domain/workers/spend.js";
import { modelPrices } from "../../../src/substrate/model-prices.js";

const carry = (): ParseCarry => ({ value: null });

test("a pi assistant message gives its tokens, and its cost only when pi reported a positive one", () => {
  const line = (total: number) =>
    JSON.stringify({
      type: "message",
      timestamp: "2026-12-01T10:00:00.000Z",
      message: {
        role: "assistant",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, cost: { total } },
      },
    });
  assert.deepEqual(parseUsageLine("pi", line(0.5), carry()), {
    at: "2026-12-01T10:00:00.000Z",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    input: 10,
    output: 5,
    cacheRead: 2,
    cacheWrite: 1,
    costUsd: 0.5,
  });
  assert.equal(parseUsageLine("pi", line(0), carry())!.costUsd, undefined);
  assert.equal(
    parseUsageLine("pi", JSON.stringify({ type: "message", message: { role: "user", content: "hi" } }), carry()),
    undefined,
  );
  assert.equal(parseUsageLine("pi", "{torn", carry()), undefined);
});

test("a Claude Code message spread over several transcript lines counts once, across reads too", () => {
  const c = carry();
  const line = (id: string) =>
    JSON.stringify({
      type: "assistant",
      timestamp: "2026-12-01T10:00:00.000Z",
      message: {
        id,
        model: "claude-sonnet-4-5-20250929",
        usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 },
      },
    });
  assert.deepEqual(parseUsageLine("claude", line("msg_1"), c), {
    at: "2026-12-01T10:00:00.000Z",
    provider: "anthropic",
    model: "claude-sonnet-4-5-20250929",
    key: "msg_1",
    input: 10,
    output: 5,
    cacheRead: 3,
    cacheWrite: 4,
  });
  assert.equal(parseUsageLine("claude", line("msg_1"), c), undefined, "the same message's next content block");
  assert.equal(c.value, "msg_1", "carried to the next read");
  assert.equal(parseUsageLine("claude", line("msg_2"), c)!.key, "msg_2");
});

test("Codex token_count events give the last call's usage (cached input apart) with the model of the last turn_context", () => {
  const c = carry();
  assert.equal(
    parseUsageLine("codex", JSON.stringify({ type: "turn_context", payload: { model: "gpt-5-codex" } }), c),
    undefined,
  );
  const r = parseUsageLine(
    "codex",
    JSON.stringify({
      timestamp: "2026-12-01T10:00:00.000Z",
      type: "event_msg",
      payload: {
        type: "token_count",
        info: {
          total_token_usage: { input_tokens: 99 },
          last_token_usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 5 },
        },
      },
    }),
    c,
  );
  assert.deepEqual(r, {
    at: "2026-12-01T10:00:00.000Z",
    provider: "openai",
    model: "gpt-5-codex",
    input: 6,
    output: 5,
    cacheRead: 4,
    cacheWrite: 0,
  });
});

test("Codex token_usage_record lines count each response once, timed when it completed; the token_count events after them then count nothing", () => {
  const c = carry();
  const line = (v: unknown) => parseUsageLine("codex", JSON.stringify(v), c);
  line({ type: "turn_context", payload: { model: "gpt-5-codex" } });
  const usage = { input_tokens: 5050, cached_input_tokens: 5000, cache_write_input_tokens: 0, output_tokens: 120 };
  assert.deepEqual(
    line({
      timestamp: "2026-12-01T10:00:00.100Z",
      type: "token_usage_record",
      payload: { response_id: "resp_1", usage, turn_token_usage: { input_tokens: 99 } },
    }),
    {
      at: "2026-12-01T10:00:00.100Z",
      provider: "openai",
      model: "gpt-5-codex",
      key: "resp_1",
      input: 50,
      output: 120,
      cacheRead: 5000,
      cacheWrite: 0,
    },
  );
  assert.equal(
    line({
      timestamp: "2026-12-01T10:00:00.900Z",
      type: "event_msg",
      payload: { type: "token_count", info: { last_token_usage: usage } },
    }),
    undefined,
  );
  line({ type: "turn_context", payload: { model: "gpt-5.1-codex" } });
  assert.equal(
    line({
      timestamp: "2026-12-01T10:00:01.000Z",
      type: "token_usage_record",
      payload: { response_id: "resp_2", usage },
    })?.model,
    "gpt-5.1-codex",
    "the carry keeps both the model and that records exist",
  );
  assert.equal(
    line({ type: "event_msg", payload: { type: "token_count", info: { last_token_usage: usage } } }),
    undefined,
  );
});

test("cost: the agent's own figure wins, then the registry's prices (a dated model id too), else unknown", () => {
  const r = {
    at: "",
    provider: "anthropic",
    model: "claude-sonnet-4-5-20250929",
    input: 1_000_000,
    output: 1_000_000,
    cacheRead: 0,
    cacheWrite: 0,
  };
  const prices = modelPrices("anthropic", "claude-sonnet-4-5-20250929");
  assert.deepEqual(prices, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
  assert.equal(resolveCost(r, prices), 18);
  assert.equal(resolveCost({ ...r, costUsd: 1.25 }, prices), 1.25);
  assert.equal(modelPrices("docket-demo", "scripted"), undefined);
  assert.equal(resolveCost(r, undefined), undefined);
  assert.equal(formatCost({ costUsd: 0, unpriced: 2, total: 10 }), "unknown");
  assert.equal(formatCost({ costUsd: 0.12, unpriced: 1, total: 10 }), "≥$0.12");
  assert.equal(formatCost({ costUsd: 0.19, unpriced: 0, total: 10 }), "$0.19");
});

test("a call belongs to the version it led to, and budgets warn at 80 % and stop at 100 %", () => {
  const marks = [
    { version: 1, at: "2026-12-01T10:00:00.000Z" },
    { version: 2, at: "2026-12-01T11:00:00.000Z" },
  ];
  assert.equal(versionOfCall("2026-12-01T09:59:59.000Z", marks), 1);
  assert.equal(versionOfCall("2026-12-01T10:30:00.000Z", marks), 2);
  assert.equal(versionOfCall("2026-12-01T12:00:00.000Z", marks), 3);
  assert.deepEqual(
    [0.79, 0.8, 0.99, 1, 1.5].map((s) => budgetStep(s, 1)),
    ["none", "warn", "warn", "stop", "stop"],
  );
});
