// How every CLI command speaks: one JSON document on stdout with --json, human lines otherwise; progress and warnings go
// to stderr. Every verb writes through `visibleIo`, so no worker text reaches a terminal raw.

import { visibleJson, visibleText } from "../../domain/text/visible-text.js";
import { writeAll } from "./fd-io.js";

export interface Io {
  json: boolean;
  /** The live parent session hosting this command (inside pi): its model, thinking and session file. */
  parent?: { model?: string; thinking?: string; sessionFile?: string };
  /** A human can answer questions here (a terminal, or pi's UI): confirmations may be asked. */
  interactive: boolean;
  /** `out` reaches a terminal that shows ANSI colours (the CLI on a TTY without NO_COLOR); never inside pi. */
  color?: boolean;
  /**
   * Writes to stdout. `style` colours each line (Docket's own escapes, added after worker text was made visible);
   * it is applied only when `color` is on.
   */
  out(text: string, style?: (line: string) => string): void;
  err(text: string): void;
  /** Asks a yes/no question; only called when `interactive`. */
  confirm(question: string): Promise<boolean>;
  /** Asks for a line of text; empty or cancelled resolves to "". Only called when `interactive`. */
  input(prompt: string): Promise<string>;
  /** Offers numbered choices; resolves to the chosen option or undefined. Only called when `interactive`. */
  select(title: string, options: string[]): Promise<string | undefined>;
}

/**
 * A reader that stops early (`docket verdict | head -1`) closes the pipe: what is left to print has nowhere to go, and
 * that is not the command's failure. It still finishes (what it recorded stays recorded) and exits with its own code.
 */
function quietOnClosedPipe(error: NodeJS.ErrnoException): void {
  if (error.code !== "EPIPE") throw error;
}

/** What a verb prints is whole lines: a last newline is added where it has none (writeAll does the same). */
const line = (text: string) => (text.endsWith("\n") ? text : `${text}\n`);

export function createIo(json: boolean): Io {
  const asks: Pick<Io, "input" | "confirm" | "select"> = {
    input: async (prompt) => (await ask(prompt)).trim(),
    confirm: async (question) => /^y(es)?$/i.test((await ask(`${question} [y/N] `)).trim()),
    select: async (title, options) => {
      const lines = [title, ...options.map((o, i) => `  ${i + 1}) ${o}`)];
      const answer = (await ask(`${lines.join("\n")}\nchoose 1-${options.length} (empty to cancel): `)).trim();
      const n = Number(answer);
      return Number.isInteger(n) && n >= 1 && n <= options.length ? options[n - 1] : undefined;
    },
  };
  // A --json command prints one document, uncoloured: straight to fds 1 and 2 (fd-io.ts's writes, a
  // closed pipe quietly ending them), so node's stdio streams (on a pipe, the net socket family) are never built.
  if (json)
    return { json, interactive: false, color: false, out: (t) => writeAll(1, t), err: (t) => writeAll(2, t), ...asks };
  for (const stream of [process.stdout, process.stderr]) stream.on("error", quietOnClosedPipe);
  return {
    json,
    // Asked on first use: touching process.stdin sets up its stream, which most commands never need.
    get interactive() {
      return Boolean(process.stdin.isTTY && process.stdout.isTTY);
    },
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    out: (text) => process.stdout.write(line(text)),
    err: (text) => process.stderr.write(line(text)),
    ...asks,
  };
}

/**
 * The Io every verb gets: whatever it writes or asks is passed through the one output filter first (hidden code points
 * drawn visibly, docs/hostile-text.md), and `--json` documents keep their bytes with those code points written as JSON
 * escapes. Only a `style` function (Docket's own code, never data) adds escapes, after the filter.
 */
export function visibleIo(io: Io): Io {
  const choices = new Map<string, string>();
  return {
    json: io.json,
    parent: io.parent,
    get interactive() {
      return io.interactive;
    },
    color: io.color,
    out: (text, style) => {
      if (io.json) return io.out(visibleJson(text));
      const shown = visibleText(text);
      io.out(style && io.color ? shown.split("\n").map(style).join("\n") : shown);
    },
    err: (text) => io.err(visibleText(text)),
    confirm: (question) => io.confirm(visibleText(question)),
    input: (prompt) => io.input(visibleText(prompt)),
    select: async (title, options) => {
      // The human picks among the shown texts; the verb gets back its own option, byte for byte.
      choices.clear();
      const shown = options.map((o, i) => {
        const v = visibleText(o);
        const label = choices.has(v) ? `${v} (${i + 1})` : v;
        choices.set(label, o);
        return label;
      });
      const picked = await io.select(visibleText(title), shown);
      return picked === undefined ? undefined : choices.get(picked);
    },
  };
}

async function ask(prompt: string): Promise<string> {
  // A builtin taken without import(): the CLI's bundle runs in a vm.Script (bin/kept-code.js), whose import() node
  // answers with an experimental-feature warning on stderr.
  const { createInterface } = process.getBuiltinModule("node:readline/promises");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(prompt);
  } finally {
    rl.close();
  }
}

/** Prints the result: the object itself with --json, else the renderer's lines. */
export function emit<T>(io: Io, result: T, render: (r: T) => string | string[]): void {
  if (io.json) {
    io.out(JSON.stringify(result));
    return;
  }
  const text = render(result);
  const lines = Array.isArray(text) ? text : [text];
  if (lines.length > 0) io.out(lines.join("\n"));
}

export function warn(io: Io, lines: readonly string[]): void {
  for (const l of lines) io.err(`warning: ${l}`);
}

/** Ends a verb with an exit code whose reason was already shown (a foreground child that printed its own refusal). */
export class ReportedExit extends Error {
  constructor(readonly code: 1 | 2) {
    super(`exit ${code}, already reported`);
    this.name = "ReportedExit";
  }
}
