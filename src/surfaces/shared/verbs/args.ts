// Small parsers for repeatable and typed flags, turning bad values into usage errors (exit 2).

import { usageError } from "../../../domain/errors.js";

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** A whole number from 1 to `max` (at most 2^53 - 1, so it stays exact everywhere it goes, SQLite included). */
export function parsePositiveInt(name: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = /^\s*[0-9]+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(n) || n < 1)
      throw usageError("bad-flag", `${name} must be a positive integer; got "${value}"`);
    if (!Number.isSafeInteger(n) || n > max)
      throw usageError("bad-flag", `${name} must be at most ${max}; got "${value}"`);
    return n;
  };
}

/** `NAME=value` pairs into a record; the name must look like an environment variable. */
export function parseAssignments(flag: string, values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf("=");
    const name = eq > 0 ? v.slice(0, eq) : "";
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw usageError("bad-flag", `${flag} takes NAME=VALUE; got "${v}"`);
    out[name] = v.slice(eq + 1);
  }
  return out;
}

/** A word as a POSIX shell reads it back unchanged (single-quoted unless it is plainly safe). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A commander parser for a positive amount of US dollars (`--budget 0.50`). */
export function parseUsd(name: string) {
  return (value: string): number => {
    const n = /^\d+(?:\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
    if (!(n > 0))
      throw usageError("bad-flag", `${name} must be a positive amount of US dollars such as 0.50; got "${value}"`);
    return n;
  };
}
