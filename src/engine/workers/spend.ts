// Reading spend: what each worker's agent appended to its own record files since the last read, priced and counted to
// the generation and version it belongs to, committed with the new offsets in one command.

import { isSpendAgent } from "../../domain/agents/traits.js";
import { parseDuration } from "../../domain/clock.js";
import { validationError } from "../../domain/errors.js";
import { workersOf } from "../../ledger/workers/fleet-reads.js";
import {
  EMPTY_TOTALS,
  addTotals,
  generationOfCall,
  parseUsageLine,
  resolveCost,
  versionOfCall,
  type SpendTotals,
} from "../../domain/workers/spend.js";
import { agentRecordFiles, readAppended } from "../../files/workers/agent-records.js";
import { listLaunches } from "../../ledger/workers/launches.js";
import {
  applySpendRead,
  spendGrouped,
  spendSources,
  workerSpendRows,
  type SpendGroup,
  type SpendRead,
  type SpendRow,
} from "../../ledger/workers/spend.js";
import { versionMarks } from "../../ledger/workers/version-marks.js";
import { modelPrices } from "../../substrate/model-prices.js";
import type { EngineContext } from "../context.js";

export { isSpendAgent };

/**
 * Reads what was appended for these workers (command workers keep no records) and records it. A read-only home or a
 * file another process is reading records nothing here; the next read picks it up from the offset that was committed.
 */
export function refreshSpend(ctx: EngineContext, workers: readonly { id: string; agent: string }[]): boolean {
  if (ctx.readOnly) return false;
  const reads: SpendRead[] = [];
  for (const w of workers) {
    if (!isSpendAgent(w.agent)) continue;
    const files = agentRecordFiles(ctx.home.workerDir(w.id), w.agent);
    if (files.length === 0) continue;
    const known = new Map(spendSources(ctx.db, w.id).map((s) => [s.path, s]));
    let marks: ReturnType<typeof versionMarks> | undefined;
    let launches: ReturnType<typeof listLaunches> | undefined;
    for (const path of files) {
      const before = known.get(path);
      const got = readAppended(path, before?.offset ?? 0, before?.identity);
      // Nothing new (an over-long line being skipped still moves the offset, so that is committed).
      if (!got || (got.text === "" && !got.restarted && before && got.offset === before.offset)) continue;
      marks ??= versionMarks(ctx.db, w.id);
      launches ??= listLaunches(ctx.db, w.id);
      const carry = { value: got.restarted ? null : (before?.carry ?? null) };
      const rows = new Map<string, SpendRow>();
      for (const line of got.text.split("\n")) {
        if (line === "") continue;
        const r = parseUsageLine(w.agent, line, carry);
        if (!r) continue;
        const cost = resolveCost(r, modelPrices(r.provider, r.model));
        const row: Omit<SpendRow, "input" | "output" | "cacheRead" | "cacheWrite" | "costUsd" | "unpriced"> = {
          generation: generationOfCall(r.at, launches),
          version: versionOfCall(r.at, marks),
          day: r.at.slice(0, 10),
          model: `${r.provider}/${r.model}`,
        };
        const key = `${row.generation}\0${row.version}\0${row.day}\0${row.model}`;
        const sum = rows.get(key) ?? {
          ...row,
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          costUsd: 0,
          unpriced: 0,
        };
        sum.input += r.input;
        sum.output += r.output;
        sum.cacheRead += r.cacheRead;
        sum.cacheWrite += r.cacheWrite;
        if (cost === undefined) sum.unpriced += 1;
        else sum.costUsd += cost;
        rows.set(key, sum);
      }
      reads.push({
        worker: w.id,
        path,
        ...(before ? { from: { identity: before.identity, offset: before.offset } } : {}),
        identity: got.identity,
        offset: got.offset,
        carry: carry.value,
        rows: [...rows.values()],
      });
    }
  }
  if (reads.length === 0) return false;
  ctx.commands.run("spend.read", { files: reads.length }, (tx) => {
    for (const r of reads) applySpendRead(tx, r);
  });
  return true;
}

export interface WorkerSpend {
  total: SpendTotals | null;
  generations: { generation: number; totals: SpendTotals }[];
  versions: { version: number; totals: SpendTotals }[];
  /** Why no spend can be shown (a command worker records none). */
  unmeasured?: string;
}

/** A worker's spend after reading what is new (unless `read`: its caller just did): totals, by generation, version. */
export function workerSpend(
  ctx: EngineContext,
  worker: { id: string; agent: string },
  options: { read?: boolean } = {},
): WorkerSpend {
  if (!isSpendAgent(worker.agent))
    return {
      total: null,
      generations: [],
      versions: [],
      unmeasured: `a ${worker.agent} worker keeps no usage records Docket can read`,
    };
  if (!options.read) refreshSpend(ctx, [worker]); // else its caller read the records just before
  const { generations, versions } = workerSpendRows(ctx.db, worker.id);
  let total: SpendTotals | null = null;
  for (const t of generations.values()) total = total ? addTotals(total, t) : t;
  return {
    total,
    generations: [...generations].sort((a, b) => a[0] - b[0]).map(([generation, totals]) => ({ generation, totals })),
    versions: [...versions].sort((a, b) => a[0] - b[0]).map(([version, totals]) => ({ version, totals })),
  };
}

export interface SpendReport {
  by: SpendGroup;
  /** The first day counted (UTC), when --since was given. */
  since: string | null;
  rows: { key: string; totals: SpendTotals }[];
  total: SpendTotals;
}

/** `docket spend`: every worker's records read up to now, then summed by worker, item, kind or day. */
export function spendReport(ctx: EngineContext, input: { by: SpendGroup; since?: string }): SpendReport {
  const since = input.since === undefined ? null : resolveSinceDay(input.since, ctx.clock.nowMs());
  refreshSpend(ctx, workersOf(ctx.db));
  const rows = spendGrouped(ctx.db, input.by, since ?? undefined);
  const total =
    input.by === "item"
      ? spendGrouped(ctx.db, "day", since ?? undefined).reduce((a, r) => addTotals(a, r.totals), { ...EMPTY_TOTALS })
      : rows.reduce((a, r) => addTotals(a, r.totals), { ...EMPTY_TOTALS });
  return { by: input.by, since, rows, total };
}

function resolveSinceDay(text: string, nowMs: number): string {
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(Date.parse(text)))
    return new Date(Date.parse(text)).toISOString().slice(0, 10);
  const ms = /\s/.test(text) ? undefined : parseDuration(text);
  if (ms === undefined)
    throw validationError("bad-since", `--since takes a date (2026-12-01) or an age (90m, 2h, 7d); got "${text}"`);
  return new Date(nowMs - ms).toISOString().slice(0, 10);
}
