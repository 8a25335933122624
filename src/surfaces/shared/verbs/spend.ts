// `docket spend [--by worker|item|kind|day] [--since …]`: tokens and cost read from the agents' own records, summed.
// A cost that no record or registry price gives is shown as unknown (or as "at least"), never estimated.

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

const GROUPS = ["worker", "item", "kind", "day"] as const;

export function registerSpendCommand(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "spend")
    .option("--by <group>", "worker | item | kind | day (default worker)", "worker")
    .option("--since <when>", "only from this day on: a date (2026-12-01) or an age (2h, 7d)")
    .action(async (opts: { by: string; since?: string }) => {
      if (!(GROUPS as readonly string[]).includes(opts.by))
        throw usageError("bad-flag", `--by must be one of ${GROUPS.join(", ")}; got "${opts.by}"`);
      const { spendReport } = await import("../../../engine/workers/spend.js");
      const { formatCost, formatTokens } = await import("../../../domain/workers/spend.js");
      const r = spendReport(engine(), {
        by: opts.by as (typeof GROUPS)[number],
        ...(opts.since !== undefined ? { since: opts.since } : {}),
      });
      const shape = (t: typeof r.total) => ({ ...t, cost: formatCost(t) });
      emit(
        io,
        {
          by: r.by,
          since: r.since,
          rows: r.rows.map((x) => ({ key: x.key, ...shape(x.totals) })),
          total: shape(r.total),
        },
        (x) => [
          `${x.by.padEnd(12)} ${"input".padStart(8)} ${"output".padStart(8)} ${"cache rd".padStart(8)} ${"cache wr".padStart(8)} ${"cost".padStart(9)}`,
          ...x.rows.map(
            (row) =>
              `${row.key.padEnd(12)} ${formatTokens(row.input).padStart(8)} ${formatTokens(row.output).padStart(8)} ${formatTokens(row.cacheRead).padStart(8)} ${formatTokens(row.cacheWrite).padStart(8)} ${row.cost.padStart(9)}`,
          ),
          `${"total".padEnd(12)} ${formatTokens(x.total.input).padStart(8)} ${formatTokens(x.total.output).padStart(8)} ${formatTokens(x.total.cacheRead).padStart(8)} ${formatTokens(x.total.cacheWrite).padStart(8)} ${x.total.cost.padStart(9)}`,
          ...(x.by === "item"
            ? ["(a worker's spend counts toward every item dispatched to it; the total counts it once)"]
            : []),
        ],
      );
    });
}
