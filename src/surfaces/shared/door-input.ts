// What a worker's client reads before it calls the door: a body or JSON file, or standard input, as untrusted input.
// Only a regular file or a pipe, at most the input cap, with the same one-line refusals as every other Docket reader.

import { decodeUtf8Strictly } from "../../domain/text/strict-json.js";
import { closeSync, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { validationError } from "../../domain/errors.js";
import { INPUT_CAP_BYTES, INPUT_CAP_TEXT } from "../../domain/input-cap.js";

export { INPUT_CAP_TEXT };

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

const readable = (st: Stats): boolean => st.isFile() || st.isFIFO() || st.isSocket(); // node hands children socket pairs as pipes
const tooLarge = (what: string) =>
  validationError(
    "input-too-large",
    `${what} is larger than ${INPUT_CAP_TEXT}, the most Docket reads as input`,
    "give a smaller file",
  );

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
        Atomics.wait(sleeper, 0, 0, 5);
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

/**
 * The text of the input file `path` (relative to the process's directory); `flag` names it in refusals. A JSON input
 * (`json`) must be valid UTF-8: its bytes are never replaced on the way to the door, which parses them strictly.
 */
export function readInputText(path: string, flag: string, options: { json?: boolean } = {}): string {
  const what = `${flag} ${path}`;
  const full = resolve(process.cwd(), path);
  let st: Stats;
  try {
    st = statSync(full);
  } catch (error) {
    throw validationError(
      "input-unreadable",
      `cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  if (!readable(st))
    throw validationError(
      "input-not-a-file",
      `${what} is ${kindOf(st)}; give a regular file or a pipe (at most ${INPUT_CAP_TEXT})`,
    );
  if (st.isFile() && st.size > INPUT_CAP_BYTES) throw tooLarge(what);
  let fd: number;
  try {
    fd = openSync(full, "r");
  } catch (error) {
    throw validationError(
      "input-unreadable",
      `cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    const now = fstatSync(fd);
    if (!readable(now))
      throw validationError("input-not-a-file", `${what} is ${kindOf(now)}; give a regular file or a pipe`);
    const bytes = readCapped(fd, what);
    if (!options.json) return bytes.toString("utf8");
    const text = decodeUtf8Strictly(bytes);
    if (text === undefined)
      throw validationError("input-file-invalid", `${what} is not valid UTF-8`, "save it as UTF-8 JSON");
    return text;
  } finally {
    closeSync(fd);
  }
}

/** Standard input as a body: a pipe or redirected regular file, never a terminal or a device. */
export function readStdinText(): string {
  const st = fstatSync(0);
  if (!readable(st))
    throw validationError(
      "input-not-a-file",
      `standard input is ${kindOf(st)}; pipe the text in or redirect a regular file (at most ${INPUT_CAP_TEXT})`,
    );
  if (st.isFile() && st.size > INPUT_CAP_BYTES) throw tooLarge("standard input");
  return readCapped(0, "standard input").toString("utf8");
}

/** Standard input is a character device (a terminal, /dev/null) or missing; fstat tells without building a stream. */
export function stdinIsDevice(): boolean {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return true;
  }
}

/** Standard input is a terminal. Only a character device loads node's tty to tell (it loads net and the streams). */
export function stdinIsTerminal(): boolean {
  return stdinIsDevice() && (createRequire(import.meta.url)("node:tty") as typeof import("node:tty")).isatty(0);
}
