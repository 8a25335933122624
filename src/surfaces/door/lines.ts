// One connection's NDJSON framing: a request per line in, one reply line per request out, in order.
// A line that does not parse becomes an empty request, and a thrown error becomes an `{ok: false, error}` reply.
// Bounded: each byte is scanned once, a line over the call cap is refused `call-too-large` and its
// connection closed, and a connection with no request in progress and nothing arriving is closed when idle too long.

import type { Socket } from "node:net";
import { callTooLarge, DEFAULT_DOOR_LIMITS } from "../../domain/door-limits.js";
import { DocketError, errorShape, isDocketError } from "../../domain/errors.js";

export type Reply = Record<string, unknown>;

export interface LineLimits {
  /** Bytes of one request line, its newline not counted. */
  maxLineBytes: number;
  /** Milliseconds a connection may wait idle (no request in progress, no bytes arriving). */
  idleMs: number;
}

const DEFAULT_LINE_LIMITS: LineLimits = {
  maxLineBytes: DEFAULT_DOOR_LIMITS.callBytes,
  idleMs: DEFAULT_DOOR_LIMITS.idleSeconds * 1000,
};

/** How an error thrown by a call reaches the worker; `explain` turns a storage failure into its named refusal. */
export type Explain = (error: unknown) => unknown | Promise<unknown>;

const failure = (error: unknown): Reply => {
  const message = error instanceof Error ? error.message : String(error);
  const e = isDocketError(error) ? error : new DocketError("internal", "door-internal", message);
  return { ok: false, error: { category: e.category, ...errorShape(e) } };
};

/** Reads NDJSON requests from one connection and writes one reply line per request, in order. */
export function serveLines(
  conn: Socket,
  handle: (request: Reply) => Promise<Reply>,
  limits: LineLimits = DEFAULT_LINE_LIMITS,
  explain: Explain = (error) => error,
): void {
  // The current line's bytes so far, as the chunks that held them: each chunk is searched for a newline once.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let inProgress = 0;
  let chain = Promise.resolve();
  conn.on("error", () => {}); // a client that went away mid-reply: its retry gets the stored result
  conn.setTimeout(limits.idleMs, () => {
    if (inProgress === 0) conn.destroy(); // a long-poll or a slow done in progress is not idle
  });

  const run = (line: Buffer) => {
    inProgress++;
    chain = chain.then(async () => {
      let request: Reply;
      try {
        request = JSON.parse(line.toString("utf8")) as Reply;
      } catch {
        request = {};
      }
      const reply = await handle(typeof request === "object" && request !== null ? request : {}).catch(
        async (error: unknown) => failure(await explain(error)),
      );
      inProgress--;
      if (!conn.destroyed) conn.write(`${JSON.stringify(reply)}\n`);
    });
  };

  const refuseTooLong = () => {
    conn.removeAllListeners("data");
    conn.pause();
    pending = [];
    // Replies stay in order: the refusal follows whatever this connection asked before, then the connection ends.
    chain = chain.then(() => {
      if (!conn.destroyed) conn.end(`${JSON.stringify(failure(callTooLarge(limits.maxLineBytes)))}\n`);
      setTimeout(() => conn.destroy(), 1_000).unref(); // a client that never reads its refusal is not waited on
    });
  };

  conn.on("data", (chunk: Buffer) => {
    let from = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, from)) {
      if (pendingBytes + nl - from > limits.maxLineBytes) return refuseTooLong();
      const part = chunk.subarray(from, nl);
      run(pending.length === 0 ? part : Buffer.concat([...pending, part]));
      pending = [];
      pendingBytes = 0;
      from = nl + 1;
    }
    if (from < chunk.length) {
      pendingBytes += chunk.length - from;
      if (pendingBytes > limits.maxLineBytes) return refuseTooLong();
      pending.push(chunk.subarray(from));
    }
  });
}
