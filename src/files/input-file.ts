// Files and standard input given to Docket as input (--file, --body-file, --items-file, --author, stdin bodies).
// Untrusted: only a regular file or a pipe, at most INPUT_CAP_BYTES, refused at once otherwise (a device never hangs us).
// The one reader of such input: a worker's client reads through it too (surfaces/shared/door-input.ts), and so its
// bundle holds it, which is why it loads node:fs and the domain only.

import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { validationError } from "../domain/errors.js";

import { INPUT_CAP_BYTES, INPUT_CAP_TEXT } from "../domain/input-cap.js";

export { INPUT_CAP_BYTES, INPUT_CAP_TEXT };

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function describeKind(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

function isPipe(st: Stats): boolean {
  // A shell pipe is a FIFO; node's child_process hands its children socket pairs instead.
  return st.isFIFO() || st.isSocket();
}

function tooLarge(what: string): Error {
  return validationError(
    "input-too-large",
    `${what} is larger than ${INPUT_CAP_TEXT}, the most Docket reads as input`,
    "give a smaller file",
  );
}

/** Reads `fd` to its end, refusing past the cap; a non-blocking descriptor is waited on, not spun. */
function readCapped(fd: number, what: string): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const buf = Buffer.alloc(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN" || code === "EWOULDBLOCK") {
        Atomics.wait(sleeper, 0, 0, 5); // a pipe in non-blocking mode with no data yet
        continue;
      }
      if (code === "EOF") break;
      throw validationError("input-unreadable", `cannot read ${what}: ${code ?? (error as Error).message}`);
    }
    if (n === 0) break;
    total += n;
    if (total > INPUT_CAP_BYTES) throw tooLarge(what);
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

/** The bytes of the input file at `path` (already resolved); `what` names it in refusals (e.g. "--body-file notes.md"). */
export function readInputFile(path: string, what: string): Buffer {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (error) {
    throw validationError(
      "input-unreadable",
      `cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (!st.isFile() && !isPipe(st)) {
    throw validationError(
      "input-not-a-file",
      `${what} is ${describeKind(st)}; give a regular file or a pipe (at most ${INPUT_CAP_TEXT})`,
    );
  }
  if (st.isFile() && st.size > INPUT_CAP_BYTES) throw tooLarge(what);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw validationError(
      "input-unreadable",
      `cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    const now = fstatSync(fd);
    if (!now.isFile() && !isPipe(now))
      throw validationError("input-not-a-file", `${what} is ${describeKind(now)}; give a regular file or a pipe`);
    return readCapped(fd, what);
  } finally {
    closeSync(fd);
  }
}

/** Standard input as an input body: a pipe or redirected regular file, never a terminal or a device. */
export function readInputDescriptor(fd: number, what: string): Buffer {
  const st = fstatSync(fd);
  if (!st.isFile() && !isPipe(st)) {
    throw validationError(
      "input-not-a-file",
      `${what} is ${describeKind(st)}; pipe the text in or redirect a regular file (at most ${INPUT_CAP_TEXT})`,
    );
  }
  if (st.isFile() && st.size > INPUT_CAP_BYTES) throw tooLarge(what);
  return readCapped(fd, what);
}
