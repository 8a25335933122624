// How every CLI command speaks: one JSON document on stdout with --json, human lines otherwise;
// progress and warnings go to stderr so stdout stays machine-readable (STYLE §18).

export interface Io {
  json: boolean;
  /** stdin/stdout are terminals: interactive confirmations may be asked. */
  interactive: boolean;
  out(text: string): void;
  err(text: string): void;
}

export function createIo(json: boolean): Io {
  return {
    json,
    interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY) && !json,
    out: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
  };
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
