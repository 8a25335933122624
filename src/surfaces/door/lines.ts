// One connection's NDJSON framing: a request per line in, one reply line per request out, in order.
// A line that does not parse becomes an empty request, and a thrown error becomes an `{ok: false, error}` reply.

import type { Socket } from "node:net";
import { DocketError, errorShape, isDocketError } from "../../domain/errors.js";

const MAX_LINE = 64 * 1024 * 1024;

export type Reply = Record<string, unknown>;

const failure = (error: unknown): Reply => {
  const message = error instanceof Error ? error.message : String(error);
  const e = isDocketError(error) ? error : new DocketError("internal", "door-internal", message);
  return { ok: false, error: { category: e.category, ...errorShape(e) } };
};

/** Reads NDJSON requests from one connection and writes one reply line per request, in order. */
export function serveLines(conn: Socket, handle: (request: Reply) => Promise<Reply>): void {
  let buffer = "";
  let chain = Promise.resolve();
  conn.setEncoding("utf8");
  conn.on("error", () => {}); // a client that went away mid-reply: its retry gets the stored result
  conn.on("data", (chunk: string) => {
    buffer += chunk;
    if (buffer.length > MAX_LINE) return void conn.destroy();
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      chain = chain.then(async () => {
        let request: Reply;
        try {
          request = JSON.parse(line) as Reply;
        } catch {
          request = {};
        }
        const reply = await handle(typeof request === "object" && request !== null ? request : {}).catch(failure);
        if (!conn.destroyed) conn.write(`${JSON.stringify(reply)}\n`);
      });
    }
  });
}
