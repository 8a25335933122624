// Use-cases on the human's items: add, edit, reply, list, show. Each write is one ledger command.
// A human edit or reply to an actively bound item moves the binding forward and queues a reply review
// (docs/decisions/item-reports.md).

import { optionalKey } from "../../domain/idempotency.js";
import { refusal, validationError } from "../../domain/errors.js";
import { assertExactRef, parseItemId, type ItemKind } from "../../domain/ids.js";
import type { Item, Reply } from "../../domain/work/items.js";
import { formatEditReview, formatReplyReview } from "../../domain/work/messages.js";
import { activeBindingForItem, listBindingsForItem, moveAcceptedRevision } from "../../ledger/work/bindings.js";
import { insertItem, insertReply, listItems, listReplies, requireItem, reviseItem } from "../../ledger/work/items.js";
import { insertMessage } from "../../ledger/talk/messages.js";
import { listReportsForItem } from "../../ledger/work/reports.js";
import type { Tx } from "../../ledger/core/runner.js";
import type { EngineContext } from "../context.js";
import { assertHuman } from "../authority.js";

export interface AddItemInput {
  kind: ItemKind;
  text: string;
  key?: string;
}

export function addItem(ctx: EngineContext, input: AddItemInput): Item {
  assertHuman(ctx, "item add");
  const text = requireText(input.text);
  return ctx.commands.run("item.add", { kind: input.kind, text }, (tx) => insertItem(tx, input.kind, text), {
    key: optionalKey({ tool: "item.add", callId: input.key }),
  }).result;
}

export interface EditItemInput {
  id: string;
  text: string;
  /** Another actor or an import: the revision moves, the worker's accepted revision does not. */
  external?: boolean;
  key?: string;
}

export interface EditItemResult {
  id: string;
  revision: number;
  /** The binding whose accepted revision moved with the edit, when the item is bound and the edit is the human's. */
  binding?: string;
  /** The reply review queued for the bound worker. */
  message?: string;
}

export function editItem(ctx: EngineContext, input: EditItemInput): EditItemResult {
  assertHuman(ctx, "item edit");
  const id = checkedItemId(input.id);
  const text = requireText(input.text);
  const external = Boolean(input.external);
  return ctx.commands.run(
    "item.edit",
    { id, text, external },
    (tx) => {
      requireOpen(tx, id, "edit");
      const revision = reviseItem(tx, id, { text });
      if (external) return { id, revision };
      const moved = followBinding(tx, id, (item) => formatEditReview(item));
      return { id, revision, ...moved };
    },
    { key: optionalKey({ tool: "item.edit", callId: input.key }) },
  ).result;
}

export interface ReplyItemInput {
  id: string;
  text: string;
  key?: string;
}

export interface ReplyItemResult extends EditItemResult {
  reply: string;
}

export function replyItem(ctx: EngineContext, input: ReplyItemInput): ReplyItemResult {
  assertHuman(ctx, "item reply");
  const id = checkedItemId(input.id);
  const text = requireText(input.text);
  return ctx.commands.run(
    "item.reply",
    { id, text },
    (tx) => {
      requireOpen(tx, id, "reply to");
      const reply = insertReply(tx, id, text);
      const revision = reviseItem(tx, id, {});
      const moved = followBinding(tx, id, (item) => formatReplyReview(item, reply));
      return { id, revision, reply: reply.id, ...moved };
    },
    { key: optionalKey({ tool: "item.reply", callId: input.key }) },
  ).result;
}

/** Inside a human change: moves the active binding (if any) to the item's new revision and tells its worker. */
function followBinding(tx: Tx, id: string, review: (item: Item) => string): { binding?: string; message?: string } {
  const binding = activeBindingForItem(tx.db, id);
  if (!binding) return {};
  const item = requireItem(tx.db, id);
  moveAcceptedRevision(tx, binding.id, item.revision);
  const message = insertMessage(tx, {
    worker: binding.worker,
    kind: "reply_review",
    body: review(item),
    binding: binding.id,
    dispatch: binding.dispatch,
  });
  return { binding: binding.id, message };
}

function requireOpen(tx: Tx, id: string, verb: string): Item {
  const item = requireItem(tx.db, id);
  if (item.state !== "open") {
    throw refusal(
      "item-not-open",
      `${id} is ${item.state}; only open items can be changed`,
      `add a new item instead of trying to ${verb} ${id}`,
    );
  }
  return item;
}

export function itemList(ctx: EngineContext, options: { all: boolean }): Item[] {
  return listItems(ctx.db, options.all);
}

export interface ItemDetail extends Item {
  replies: Pick<Reply, "id" | "text" | "state">[];
  bindings: {
    id: string;
    worker: string;
    generation: number;
    acceptedRevision: number;
    state: "active" | "resolved";
  }[];
  reports: { id: string; outcome: string; body: string }[];
}

export function showItem(ctx: EngineContext, value: string): ItemDetail {
  const item = requireItem(ctx.db, checkedItemId(value));
  return {
    id: item.id,
    kind: item.kind,
    text: item.text,
    revision: item.revision,
    state: item.state,
    replies: listReplies(ctx.db, item.id).map((r) => ({ id: r.id, text: r.text, state: r.state })),
    bindings: listBindingsForItem(ctx.db, item.id).map((b) => ({
      id: b.id,
      worker: b.worker,
      generation: b.generation,
      acceptedRevision: b.acceptedRevision,
      state: b.state,
    })),
    reports: listReportsForItem(ctx.db, item.id).map((r) => ({ id: r.id, outcome: r.outcome, body: r.body })),
  };
}

export function checkedItemId(value: string): string {
  assertExactRef(String(value ?? ""), "an item id");
  const parsed = parseItemId(String(value ?? ""));
  if (!parsed)
    throw validationError("bad-item-id", `"${value}" is not an item id; items are t<N> (todo) or r<N> (request)`);
  return String(value);
}

export function requireText(text: string): string {
  if (typeof text !== "string" || text.trim() === "") throw validationError("empty-text", "text must not be empty");
  return text;
}

export { requireItem };
