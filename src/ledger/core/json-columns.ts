// JSON columns read back validated: each reader checks the shape it returns, so no unchecked `JSON.parse … as T`
// leaves the ledger; a column that is not its shape is a named ledger fault (or the caller's stated fallback).

import { internalError, type DocketError } from "../../domain/errors.js";

/** The parsed value, or undefined when `text` is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // not JSON: the caller's shape check refuses it
  }
}

/** A JSON array read as strings (each element as its text); undefined when the column is not a JSON array. */
export function stringList(text: string): string[] | undefined {
  const value = parseJson(text);
  return Array.isArray(value) ? value.map(String) : undefined;
}

/** A JSON list of strings, as read back; undefined when any element is not a string. */
export const asStringList = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((s) => typeof s === "string") ? v : undefined;

/** A JSON object of string values, as read back; undefined when it is not one. */
export function asStringRecord(v: unknown): Record<string, string> | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const entries = Object.entries(v);
  return entries.every(([, s]) => typeof s === "string") ? Object.fromEntries(entries) : undefined;
}

/** A column whose content is not the shape Docket wrote into it. */
export function columnFault(table: string, column: string, id: string, why: string): DocketError {
  return internalError(
    "ledger-column-invalid",
    `the ledger's ${table}.${column} of ${id} ${why}; the ledger was changed outside Docket`,
  );
}

/** A column read as `T` through its validator, or a ledger fault naming the row. */
export function jsonColumn<T>(
  text: string,
  read: (value: unknown) => T | undefined,
  where: { table: string; column: string; id: string },
): T {
  const value = read(parseJson(text));
  if (value === undefined) throw columnFault(where.table, where.column, where.id, "is not valid");
  return value;
}
