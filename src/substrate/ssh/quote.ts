// The one place Docket builds shell text: ssh joins its command words into one line that the host's shell reads again,
// so each word Docket sends is quoted here, whole, in single quotes (a `'` becomes `'\''`); nothing else is ever spliced.

/** One word for a POSIX shell: exactly these bytes, whatever they hold (`$(…)`, quotes, newlines, globs). */
export function shellQuote(word: string): string {
  if (word.includes("\u0000")) throw new Error("a NUL byte cannot travel in a shell word");
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The remote command line for an argv: every word quoted, joined by spaces (what ssh sends to the host's shell). */
export function remoteCommandLine(argv: readonly string[]): string {
  if (argv.length === 0) throw new Error("a remote command needs at least one word");
  return argv.map(shellQuote).join(" ");
}
