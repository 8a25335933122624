// Items and replies in SQL: inserts, revision bumps, and reads. Callers run writes inside a command.

import type { Item, ItemState, Reply } from "../../domain/work/items.js";
import { formatId, type ItemKind } from "../../domain/ids.js";
import { notFound } from "../../domain/errors.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

export function insertItem(tx: Tx, kind: ItemKind, text: string): Item {
  const id = formatId(kind, tx.next(kind));
  statement(
    tx.db,
    "INSERT INTO items (id, kind, text, revision, state, created_at, updated_at) VALUES (?, ?, ?, 1, 'open', ?, ?)",
  ).run(id, kind, text, tx.now, tx.now);
  return { id, kind, text, revision: 1, state: "open" };
}

export function getItem(db: Db, id: string): Item | undefined {
  return statement(db, "SELECT id, kind, text, revision, state FROM items WHERE id = ?").get(id) as Item | undefined;
}

export function requireItem(db: Db, id: string): Item {
  const item = getItem(db, id);
  if (!item) throw notFound("item-not-found", `no item ${id}`, "run `docket item ls --all` to see items");
  return item;
}

export function listItems(db: Db, all: boolean): Item[] {
  const where = all ? "" : "WHERE state = 'open'";
  return statement(
    db,
    `SELECT id, kind, text, revision, state FROM items ${where} ORDER BY created_at, rowid`,
  ).all() as Item[];
}

/** Sets new text (optional) and state (optional), always incrementing the revision; returns the new revision. */
export function reviseItem(
  tx: Tx,
  id: string,
  patch: { text?: string; state?: ItemState; closingNote?: string },
): number {
  const row = statement(
    tx.db,
    `UPDATE items SET text = COALESCE(@text, text), state = COALESCE(@state, state), closing_note = COALESCE(@note, closing_note),
        revision = revision + 1, updated_at = @now WHERE id = @id RETURNING revision`,
  ).get({ id, text: patch.text ?? null, state: patch.state ?? null, note: patch.closingNote ?? null, now: tx.now }) as
    | { revision: number }
    | undefined;
  if (!row) throw notFound("item-not-found", `no item ${id}`);
  return row.revision;
}

export function insertReply(tx: Tx, item: string, text: string): Reply {
  const id = `${item}.${tx.next(`reply:${item}`)}`;
  statement(tx.db, "INSERT INTO replies (id, item, text, state, created_at) VALUES (?, ?, ?, 'unanswered', ?)").run(
    id,
    item,
    text,
    tx.now,
  );
  return { id, item, text, state: "unanswered" };
}

export function listReplies(db: Db, item: string): Reply[] {
  return statement(db, "SELECT id, item, text, state FROM replies WHERE item = ? ORDER BY rowid").all(item) as Reply[];
}

export function answerReply(tx: Tx, id: string, answer: string, reportId: string): void {
  statement(
    tx.db,
    "UPDATE replies SET state = 'answered', answer = ?, answered_by = ?, answered_at = ? WHERE id = ?",
  ).run(answer, reportId, tx.now, id);
}
