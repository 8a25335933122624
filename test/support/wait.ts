// Polling with a deadline: every wait in the tests names what it waits for and fails with that name when it never
// happens. A check may also throw to fail at once (a child that died early), instead of waiting out the deadline.

import { readFileSync } from "node:fs";

/** Polls `check` (sync or async: a promise is awaited) until it gives a value (not undefined/false) or the deadline passes. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * A file's text once `complete` says it is whole, for `waitFor`. A file that another process writes exists before its
 * text does (the shell's `>` creates it empty), so waiting for the file alone reads it half written.
 */
export function fileOnce(path: string, complete: (text: string) => boolean): () => string | undefined {
  return () => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
    return complete(text) ? text : undefined;
  };
}

/** A text ends with a whole line. */
export const endsWithLine = (text: string): boolean => text.endsWith("\n");
