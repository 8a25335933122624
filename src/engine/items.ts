// Use-cases on the human's items: add, edit, reply, list, show. Each write is one ledger command.
// A human edit or reply to an actively bound item moves the binding forward and queues a reply review (seed 002).

import { validationError } from "../domain/errors.js";
import { parseItemId, type ItemKind } from "../domain/ids.js";
import type { Item } from "../domain/items.js";
import { insertItem, listItems, requireItem } from "../ledger/items.js";
import type { EngineContext } from "./context.js";

export interface AddItemInput {
  kind: ItemKind;
  text: string;
  key?: string;
}

export function addItem(ctx: EngineContext, input: AddItemInput): Item {
  const text = requireText(input.text);
  return ctx.commands.run("item.add", { kind: input.kind, text }, (tx) => insertItem(tx, input.kind, text), { key: input.key }).result;
}

export function itemList(ctx: EngineContext, options: { all: boolean }): Item[] {
  return listItems(ctx.db, options.all);
}

export function checkedItemId(value: string): string {
  const parsed = parseItemId(value);
  if (!parsed) throw validationError("bad-item-id", `"${value}" is not an item id; items are t<N> (todo) or r<N> (request)`);
  return value.trim();
}

export function requireText(text: string): string {
  if (typeof text !== "string" || text.trim() === "") throw validationError("empty-text", "text must not be empty");
  return text;
}

export { requireItem };
