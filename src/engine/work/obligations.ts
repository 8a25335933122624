// The human's view of what bindings owe: list (owed, due, all), park until a time, unpark.
// Park/unpark are ledger commands; a resolved obligation cannot be parked (docs/decisions/item-reports.md).

import { assertExactRef } from "../../domain/ids.js";
import { optionalKey } from "../../domain/idempotency.js";
import { refusal, validationError } from "../../domain/errors.js";
import { listObligations, parkObligation, unparkObligation, type Obligation } from "../../ledger/work/obligations.js";
import type { EngineContext } from "../context.js";
import { assertHuman } from "../authority.js";

export type ObligationView = Pick<
  Obligation,
  "id" | "item" | "worker" | "state" | "dueAt" | "parkedUntil" | "disposition"
>;

const view = (o: Obligation): ObligationView => ({
  id: o.id,
  item: o.item,
  worker: o.worker,
  state: o.state,
  dueAt: o.dueAt,
  parkedUntil: o.parkedUntil,
  disposition: o.disposition,
});

export function obligationList(ctx: EngineContext, options: { due?: boolean; all?: boolean }): ObligationView[] {
  if (options.due && options.all)
    throw validationError("bad-flags", "--due and --all cannot be combined; --due lists owed obligations due now");
  const filter = options.due
    ? { scope: "due" as const, now: ctx.clock.now() }
    : options.all
      ? { scope: "all" as const }
      : { scope: "owed" as const };
  return listObligations(ctx.db, filter).map(view);
}

export function parkObligationUntil(
  ctx: EngineContext,
  input: { id: string; until: string; key?: string },
): ObligationView {
  assertHuman(ctx, "obligation park");
  const id = checkedObligationId(input.id);
  const until = parseInstant(input.until);
  return ctx.commands.run(
    "obligation.park",
    { id, until },
    (tx) => {
      if (until <= tx.now)
        throw refusal("park-in-past", `--until ${input.until} is not in the future; park until a later time`);
      return view(parkObligation(tx, id, until));
    },
    { key: optionalKey({ tool: "obligation.park", callId: input.key }) },
  ).result;
}

export function unparkObligationNow(ctx: EngineContext, input: { id: string; key?: string }): ObligationView {
  assertHuman(ctx, "obligation unpark");
  const id = checkedObligationId(input.id);
  return ctx.commands.run("obligation.unpark", { id }, (tx) => view(unparkObligation(tx, id)), {
    key: optionalKey({ tool: "obligation.unpark", callId: input.key }),
  }).result;
}

function checkedObligationId(value: string): string {
  const v = String(value ?? "");
  assertExactRef(v, "an obligation id");
  if (!/^o[1-9][0-9]*$/.test(v))
    throw validationError("bad-obligation-id", `"${value}" is not an obligation id; obligations are o<N>`);
  return v;
}

/** An ISO-8601 date-time with an explicit zone (Z or ±hh:mm), normalised to UTC. */
function parseInstant(text: string): string {
  const t = String(text ?? "").trim();
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(t) ? Date.parse(t) : Number.NaN;
  if (Number.isNaN(ms))
    throw validationError("bad-time", `--until "${text}" is not an ISO time with a zone; e.g. 2026-12-01T09:00:00Z`);
  return new Date(ms).toISOString();
}
