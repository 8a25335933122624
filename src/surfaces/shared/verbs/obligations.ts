// `docket obligations [--due|--all]`, `docket obligation park <id> --until <iso>`, `docket obligation unpark <id>`.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

interface Row {
  id: string;
  item: string;
  worker: string;
  state: string;
  dueAt: string;
  parkedUntil: string | null;
  disposition: string | null;
}

const line = (o: Row): string =>
  `${o.id.padEnd(5)} ${o.item.padEnd(5)} ${o.worker.padEnd(4)} ${o.state.padEnd(8)} due ${o.dueAt}` +
  `${o.parkedUntil ? ` · parked until ${o.parkedUntil}` : ""}${o.disposition ? ` · ${/^rp[1-9]/.test(o.disposition) ? `paid by ${o.disposition}` : o.disposition}` : ""}`;

export function registerObligationCommands(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "obligations")
    .option("--due", "only obligations due now and not parked")
    .option("--all", "include resolved obligations")
    .action(async (opts: { due?: boolean; all?: boolean }) => {
      const { obligationList } = await import("../../../engine/work/obligations.js");
      const obligations = obligationList(engine(), { due: opts.due, all: opts.all });
      emit(io, { obligations }, (r) =>
        r.obligations.length === 0 ? (opts.due ? "nothing is due" : "no obligations") : r.obligations.map(line),
      );
    });

  const one = declareVerb(program, "obligation");
  one
    .command("park")
    .description("park an owed obligation until a time: it is not due before then")
    .argument("<id>", "obligation id (o<N>)")
    .requiredOption("--until <iso-time>", "ISO time with a zone, e.g. 2026-12-01T09:00:00Z")
    .option("--key <key>", "idempotency key")
    .action(async (id: string, opts: { until: string; key?: string }) => {
      const { parkObligationUntil } = await import("../../../engine/work/obligations.js");
      emit(
        io,
        parkObligationUntil(engine(), { id, until: opts.until, key: opts.key }),
        (o) => `${o.id} parked until ${o.parkedUntil}`,
      );
    });
  one
    .command("unpark")
    .description("clear an obligation's park")
    .argument("<id>", "obligation id (o<N>)")
    .option("--key <key>", "idempotency key")
    .action(async (id: string, opts: { key?: string }) => {
      const { unparkObligationNow } = await import("../../../engine/work/obligations.js");
      emit(io, unparkObligationNow(engine(), { id, key: opts.key }), (o) => `${o.id} unparked (due ${o.dueAt})`);
    });
}
