// An Io for a worker's one-shot `docket worker …` call: its lines go straight to file descriptors 1 and 2.
// process.stdout on a pipe is a net socket, and building it would load node's stream family for a line or two.

import { writeSync } from "node:fs";
import { DocketError } from "../../domain/errors.js";
import type { Io } from "./io.js";

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` to `fd`, waiting out a descriptor another process left non-blocking (EAGAIN). A reader that
 * closed the pipe (EPIPE) gets nothing more, quietly: the call itself is done and keeps its exit code.
 */
export function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text.endsWith("\n") ? text : `${text}\n`, "utf8");
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return;
      if (code !== "EAGAIN" && code !== "EWOULDBLOCK") throw error;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

const asksNothing = (): never => {
  throw new DocketError("internal", "no-questions", "a worker's call asks no questions");
};

/** The worker verbs only print (a result, or one refusal): nothing is asked, nothing coloured. */
export function createFdIo(json: boolean): Io {
  return {
    json,
    interactive: false,
    color: false,
    out: (text) => writeAll(1, text),
    err: (text) => writeAll(2, text),
    confirm: asksNothing,
    input: asksNothing,
    select: asksNothing,
  };
}
