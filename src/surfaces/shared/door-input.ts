// What a worker's client reads before it calls the door: a body or JSON file, or standard input, through the one reader
// of untrusted input every Docket command uses (files/input-file.ts: a regular file or a pipe, at most the input cap,
// the same one-line refusals); here as text, and what standard input is, asked without building a stream.

import { fstatSync } from "node:fs";
import { resolve } from "node:path";
import { validationError } from "../../domain/errors.js";
import { decodeUtf8Strictly } from "../../domain/text/strict-json.js";
import { readInputDescriptor, readInputFile } from "../../files/input-file.js";

export { INPUT_CAP_TEXT } from "../../domain/input-cap.js";

/**
 * The text of the input file `path` (relative to the process's directory); `flag` names it in refusals. A JSON input
 * (`json`) must be valid UTF-8: its bytes are never replaced on the way to the door, which parses them strictly.
 */
export function readInputText(path: string, flag: string, options: { json?: boolean } = {}): string {
  const what = `${flag} ${path}`;
  const bytes = readInputFile(resolve(process.cwd(), path), what);
  if (!options.json) return bytes.toString("utf8");
  const text = decodeUtf8Strictly(bytes);
  if (text === undefined)
    throw validationError("input-file-invalid", `${what} is not valid UTF-8`, "save it as UTF-8 JSON");
  return text;
}

/** Standard input as a body: a pipe or redirected regular file, never a terminal or a device. */
export function readStdinText(): string {
  return readInputDescriptor(0, "standard input").toString("utf8");
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
  return stdinIsDevice() && process.getBuiltinModule("node:tty").isatty(0);
}
