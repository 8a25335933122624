// Dispatch: hands open items to one worker — one dispatch, a binding and an obligation per item, one work envelope.
// All in one command: an item that is not open or already actively bound refuses the whole dispatch.

import { optionalKey } from "../../domain/idempotency.js";
import { addMinutes } from "../../domain/clock.js";
import { refusal, validationError } from "../../domain/errors.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import type { Item } from "../../domain/work/items.js";
import { formatWorkEnvelope } from "../../domain/work/messages.js";
import { activeBindingForItem, insertBinding } from "../../ledger/work/bindings.js";
import { insertDispatch } from "../../ledger/work/dispatch.js";
import { requireItem } from "../../ledger/work/items.js";
import { insertMessage } from "../../ledger/talk/messages.js";
import { markDeliveredWithBrief } from "../../ledger/talk/message-delivery.js";
import { insertObligation } from "../../ledger/work/obligations.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import type { Db } from "../../ledger/core/open.js";
import type { EngineContext } from "../context.js";
import { checkedItemId } from "./items.js";
import { assertHuman } from "../authority.js";

export interface DispatchInput {
  worker: string;
  items: readonly string[];
  key?: string;
  /** Spawn's dispatch: the envelope goes into the new worker's task.md, delivered with its first prompt. */
  inBrief?: boolean;
}

export interface DispatchResult {
  dispatch: string;
  bindings: { item: string; binding: string; acceptedRevision: number }[];
  /** The work envelope's text (what the worker is told). */
  envelope: string;
}

export function dispatchItems(ctx: EngineContext, input: DispatchInput): DispatchResult {
  assertHuman(ctx, "dispatch");
  const worker = normalizeWorkerId(String(input.worker ?? ""));
  if (!worker) throw validationError("bad-worker-id", `"${input.worker}" is not a worker id; workers are w<N>`);
  if (input.items.length === 0)
    throw validationError("no-items", "name at least one item to dispatch", "`docket dispatch <worker> <item>...`");
  const items = input.items.map(checkedItemId);
  const twice = items.find((id, i) => items.indexOf(id) !== i);
  if (twice) throw validationError("duplicate-item", `${twice} is named twice; name each item once`);
  const dueMinutes = ctx.config().obligationDueMinutes;
  return ctx.commands.run(
    "dispatch",
    { worker, items, dueMinutes },
    (tx) => {
      const row = requireWorker(tx.db, worker);
      if (row.exited)
        throw refusal(
          "worker-exited",
          `${worker} has exited; respawn it or dispatch to another worker`,
          `\`docket respawn ${worker}\``,
        );
      const open = dispatchableItems(tx.db, items);
      const dispatch = insertDispatch(tx, worker, row.generation);
      const dueAt = addMinutes(tx.now, dueMinutes);
      const bindings = open.map((item) => {
        const binding = insertBinding(tx, {
          dispatch,
          item: item.id,
          worker,
          generation: row.generation,
          acceptedRevision: item.revision,
        });
        insertObligation(tx, { binding, item: item.id, worker, dueAt });
        return { item: item.id, binding, acceptedRevision: item.revision };
      });
      const envelope = formatWorkEnvelope(dispatch, open);
      const message = insertMessage(tx, { worker, kind: "work", body: envelope, dispatch });
      if (input.inBrief) markDeliveredWithBrief(tx, message, row.generation);
      return { dispatch, bindings, envelope };
    },
    { key: optionalKey({ tool: "dispatch", callId: input.key }) },
  ).result;
}

/** The items, each open and bound to no worker, or a refusal naming the first that is not (read before or inside a dispatch). */
export function dispatchableItems(db: Db, items: readonly string[]): Item[] {
  return items.map((raw) => {
    const id = checkedItemId(raw);
    const item = requireItem(db, id);
    if (item.state !== "open")
      throw refusal("item-not-open", `${id} is ${item.state}; only open items can be dispatched`);
    const held = activeBindingForItem(db, id);
    if (held) {
      throw refusal(
        "item-already-bound",
        `${id} is already bound to ${held.worker} (binding ${held.id}); nothing was dispatched`,
        `wait for ${held.worker} to report on ${id}, or dispatch other items`,
      );
    }
    return item;
  });
}
