// Spend: the token usage an agent recorded, one line of its own files at a time, and how totals are said to the human.
// Pure: a cost is the agent's own where it gives one, else tokens × the registry's prices, else unknown — never a guess.

import { AGENT_TRAITS, type SpendAgent } from "../agents/traits.js";

export type { SpendAgent } from "../agents/traits.js";

export interface Tokens {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One model call as the agent recorded it. `costUsd` is the agent's own figure, when it gave one. */
export interface UsageRecord extends Tokens {
  at: string;
  /** `provider/model` as the agent named it (Claude and Codex records name only the model: their provider is implied). */
  provider: string;
  model: string;
  costUsd?: number;
  /** What identifies the call across lines (Claude writes one line per content block of the same message). */
  key?: string;
}

/** Prices in USD per million tokens, as pi-ai's model registry gives them. */
export type Prices = Tokens;

export interface SpendTotals extends Tokens {
  total: number;
  /** Cost of the calls whose cost is known. */
  costUsd: number;
  /** Calls whose cost is unknown (no reported cost, no registry price): the cost is then at least costUsd. */
  unpriced: number;
}

export const EMPTY_TOTALS: SpendTotals = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  total: 0,
  costUsd: 0,
  unpriced: 0,
};

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** What a reader carries from one line to the next (and from one read to the next): Claude's message id, Codex's model. */
export interface ParseCarry {
  value: string | null;
}

/**
 * One line of an agent's record file → the usage it records, if any. pi: session `message` entries of the assistant;
 * Claude Code: transcript `assistant` lines (one message may span lines: the same id counts once); Codex: rollout
 * `token_usage_record` lines, or `token_count` events where it writes none, with the model of the last `turn_context`.
 */
export function parseUsageLine(agent: SpendAgent, line: string, carry: ParseCarry): UsageRecord | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined; // a torn or foreign line is not usage
  }
  const e = obj(v);
  if (!e) return undefined;
  const format = AGENT_TRAITS[agent].spendRecords.format;
  if (format === "pi-session") {
    const m = obj(e.message);
    const u = obj(m?.usage);
    if (e.type !== "message" || m?.role !== "assistant" || !u) return undefined;
    const reported = num(obj(u.cost)?.total);
    return {
      at: str(e.timestamp) ?? new Date(num(m.timestamp)).toISOString(),
      provider: str(m.provider) ?? "",
      model: str(m.model) ?? "",
      input: num(u.input),
      output: num(u.output),
      cacheRead: num(u.cacheRead),
      cacheWrite: num(u.cacheWrite),
      // pi writes 0 when it has no price for the model: only a positive figure is a reported cost.
      ...(reported > 0 ? { costUsd: reported } : {}),
    };
  }
  if (format === "claude-transcript") {
    const m = obj(e.message);
    const u = obj(m?.usage);
    if (e.type !== "assistant" || !m || !u) return undefined;
    const key = str(m.id) ?? str(e.requestId);
    if (key !== undefined && key === carry.value) return undefined;
    if (key !== undefined) carry.value = key;
    const reported = num(e.costUSD);
    return {
      at: str(e.timestamp) ?? "",
      provider: "anthropic",
      model: str(m.model) ?? "",
      key,
      input: num(u.input_tokens),
      output: num(u.output_tokens),
      cacheRead: num(u.cache_read_input_tokens),
      cacheWrite: num(u.cache_creation_input_tokens),
      ...(reported > 0 ? { costUsd: reported } : {}),
    };
  }
  return parseCodexLine(e, carry);
}

/**
 * Codex's carry: the model of the last `turn_context`, and whether this file has per-response `token_usage_record`
 * lines (newer Codex writes one as each response completes, before its tool calls run, and a `token_count` event
 * after them: then only the records count, so the call is timed before the version it led to was frozen).
 */
function codexCarry(carry: ParseCarry): { model: string; records: boolean } {
  const v = carry.value ?? "";
  if (v.startsWith("{")) {
    try {
      const o = obj(JSON.parse(v));
      return { model: str(o?.model) ?? "", records: o?.records === true };
    } catch {
      // a carry this build did not write: start over from the next turn_context
    }
  }
  return { model: v.startsWith("{") ? "" : v, records: false };
}

function parseCodexLine(e: Record<string, unknown>, carry: ParseCarry): UsageRecord | undefined {
  const p = obj(e.payload);
  const state = codexCarry(carry);
  const save = (next: { model: string; records: boolean }) =>
    (carry.value = next.records ? JSON.stringify(next) : next.model);
  if (e.type === "turn_context" && str(p?.model)) {
    save({ ...state, model: str(p!.model)! });
    return undefined;
  }
  let last: Record<string, unknown> | undefined;
  let key: string | undefined;
  if (e.type === "token_usage_record") {
    last = obj(p?.usage);
    if (!last) return undefined;
    key = str(p?.response_id);
    if (!state.records) save({ ...state, records: true });
  } else {
    last = obj(obj(p?.info)?.last_token_usage);
    if (e.type !== "event_msg" || p?.type !== "token_count" || !last || state.records) return undefined;
  }
  const cached = num(last.cached_input_tokens);
  return {
    at: str(e.timestamp) ?? "",
    provider: "openai",
    model: state.model,
    ...(key ? { key } : {}),
    // OpenAI counts cached tokens inside input_tokens.
    input: Math.max(0, num(last.input_tokens) - cached),
    output: num(last.output_tokens),
    cacheRead: cached,
    cacheWrite: num(last.cache_write_input_tokens),
  };
}

/** The cost of one call: the agent's own figure, else its tokens at the registry's prices, else undefined (unknown). */
export function resolveCost(r: UsageRecord, prices: Prices | undefined): number | undefined {
  if (r.costUsd !== undefined) return r.costUsd;
  if (!prices) return undefined;
  return (
    (r.input * prices.input +
      r.output * prices.output +
      r.cacheRead * prices.cacheRead +
      r.cacheWrite * prices.cacheWrite) /
    1_000_000
  );
}

export function addTotals(a: SpendTotals, b: SpendTotals): SpendTotals {
  const input = a.input + b.input,
    output = a.output + b.output,
    cacheRead = a.cacheRead + b.cacheRead,
    cacheWrite = a.cacheWrite + b.cacheWrite;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    total: input + output + cacheRead + cacheWrite,
    costUsd: a.costUsd + b.costUsd,
    unpriced: a.unpriced + b.unpriced,
  };
}

/** `41.2k`, `950`, `1.3M` */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** `$0.19`, `≥$0.12` (some calls unpriced), `unknown` (none priced), `$0.0042` below a cent. */
export function formatCost(t: Pick<SpendTotals, "costUsd" | "unpriced" | "total">): string {
  if (t.total === 0 && t.unpriced === 0) return "$0.00";
  if (t.unpriced > 0 && t.costUsd === 0) return "unknown";
  const dollars = t.costUsd > 0 && t.costUsd < 0.01 ? `$${t.costUsd.toFixed(4)}` : `$${t.costUsd.toFixed(2)}`;
  return t.unpriced > 0 ? `≥${dollars}` : dollars;
}

/**
 * A worker's cost, the one rule every surface shows: `unknown` when its agent keeps no records Docket can read (null),
 * else what its records say (`$0.00` before its first model call).
 */
export function formatWorkerCost(spend: Pick<SpendTotals, "costUsd" | "unpriced" | "total"> | null): string {
  return spend === null ? "unknown" : formatCost(spend);
}

/** `41.2k tokens · $0.19` */
export const formatSpend = (t: SpendTotals): string => `${formatTokens(t.total)} tokens · ${formatCost(t)}`;

/** The version a call at `at` led to: one past the versions frozen before it. */
export function versionOfCall(at: string, marks: readonly { version: number; at: string }[]): number {
  let v = 0;
  for (const m of marks) if (m.at < at) v = Math.max(v, m.version);
  return v + 1;
}

/** The generation that made a call at `at`: the last launch started at or before it (1 when none is). */
export function generationOfCall(at: string, launches: readonly { generation: number; startedAt: string }[]): number {
  let g = 1;
  for (const l of launches) if (l.startedAt <= at) g = Math.max(g, l.generation);
  return g;
}

/** Budget thresholds crossed: `warn` at 80 %, `stop` at 100 %. */
export function budgetStep(spentUsd: number, budgetUsd: number): "none" | "warn" | "stop" {
  if (spentUsd >= budgetUsd) return "stop";
  if (spentUsd >= budgetUsd * 0.8) return "warn";
  return "none";
}
