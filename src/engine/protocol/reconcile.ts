// Reconcile: the worker accepts an item's current revision after a change it did not get as a reply review.
// Fenced like a report; without it, an external edit would leave the item's report refused forever
// (docs/decisions/item-reports.md).

import { refusal } from "../../domain/errors.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import { activeBindingOf, moveAcceptedRevision } from "../../ledger/work/bindings.js";
import { listReplies, requireItem } from "../../ledger/work/items.js";
import { runFenced } from "./fenced.js";
import type { EngineContext } from "../context.js";
import { checkedItemId } from "../work/items.js";
import { NO_ACTIVE_BINDING } from "./report.js";

export interface ReconcileResult {
  item: string;
  binding: string;
  previousRevision: number;
  acceptedRevision: number;
  text: string;
  unansweredReplies: { id: string; text: string }[];
}

export function reconcileItem(ctx: EngineContext, who: WorkerIdentity, value: string): ReconcileResult {
  const id = checkedItemId(value);
  return runFenced(ctx, { command: "report.reconcile", who, request: { who, item: id } }, (tx) => {
    const item = requireItem(tx.db, id);
    const binding = activeBindingOf(tx.db, who, id);
    if (!binding)
      throw refusal(
        "no-active-binding",
        `${NO_ACTIVE_BINDING} (${who.worker} generation ${who.generation}, item ${id})`,
      );
    moveAcceptedRevision(tx, binding.id, item.revision);
    return {
      item: id,
      binding: binding.id,
      previousRevision: binding.acceptedRevision,
      acceptedRevision: item.revision,
      text: item.text,
      unansweredReplies: listReplies(tx.db, id)
        .filter((r) => r.state === "unanswered")
        .map((r) => ({ id: r.id, text: r.text })),
    };
  });
}
