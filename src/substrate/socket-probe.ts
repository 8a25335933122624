// Whether something listens on a Unix socket: one connect, closed at once. How the human's side tells a live door
// supervisor from a dead one's socket file without starting anything (a stat and a connect when all is well).

import { createConnection } from "node:net";

/** "answers" when a connection was accepted; "refused" when nothing listens there (or no socket is there); "busy" else. */
export type Probe = "answers" | "refused" | "busy";

export function probeSocket(path: string, timeoutMs = 2_000): Promise<Probe> {
  return new Promise((done) => {
    const conn = createConnection(path);
    const settle = (probe: Probe) => {
      conn.destroy();
      done(probe);
    };
    conn.setTimeout(timeoutMs, () => settle("busy"));
    conn.on("connect", () => settle("answers"));
    conn.on("error", (error: NodeJS.ErrnoException) =>
      settle(error.code === "ECONNREFUSED" || error.code === "ENOENT" || error.code === "ENOTDIR" ? "refused" : "busy"),
    );
  });
}
