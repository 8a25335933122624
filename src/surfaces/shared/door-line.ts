// The transport under the door's client: one request line out, one reply line back, over a generation's Unix socket
// through node:net, with a named Unreached for every way a door can fail to answer.

import { connect } from "node:net";

/** The door could not be reached or did not answer; `noSocket` when nothing listens at that path. */
export class Unreached extends Error {
  constructor(
    readonly reason: string,
    readonly noSocket: boolean,
  ) {
    super(reason);
  }
}

export interface LineOptions {
  /** How long to wait for the reply line before giving up. */
  waitMs: number;
  /** A long-poll: neither the connection nor its timer keeps a finished process alive. */
  background?: boolean;
}

/** Sends `line` (one NDJSON request, newline included) and resolves to the first line the door writes back. */
export function exchangeLine(socket: string, line: string, options: LineOptions): Promise<string> {
  return new Promise((done, fail) => {
    const conn = connect(socket, () => conn.write(line));
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      settle();
    };
    const failed = (reason: string, noSocket = false) => finish(() => fail(new Unreached(reason, noSocket)));
    const timer = setTimeout(() => failed(`no reply within ${options.waitMs} ms`), options.waitMs);
    if (options.background) {
      timer.unref();
      conn.unref();
    }
    const chunks: Buffer[] = [];
    conn.on("data", (chunk: Buffer) => {
      const nl = chunk.indexOf(0x0a);
      chunks.push(nl === -1 ? chunk : chunk.subarray(0, nl));
      // Decoded only once the newline is in, so a character split between reads stays whole.
      if (nl !== -1) finish(() => done(Buffer.concat(chunks).toString("utf8")));
    });
    conn.on("error", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      failed(code, code === "ENOENT" || code === "ECONNREFUSED");
    });
    conn.on("close", () => failed("the door closed the connection before replying"));
  });
}
