// Polling with a deadline: every wait in the tests names what it waits for and fails with that name when it never
// happens. A check may also throw to fail at once (a child that died early), instead of waiting out the deadline.

/** Polls `check` (sync or async: a promise is awaited) until it gives a value (not undefined/false) or the deadline passes. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
