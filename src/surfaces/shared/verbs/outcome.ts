// How a docket command line ends: --json stripped anywhere, commander's own exits turned into ours, and the one way a
// failure is printed (usage → 2, refusal → 1). Shared by the full CLI and the worker's small client.

import type { Command } from "commander";
import { DocketError, errorShape, exitCodeFor, isDocketError } from "../../../domain/errors.js";
import { ReportedExit, type Io } from "../io.js";
import { VERSION } from "../version.js";

/** The `docket` program both command lines build on: -V, --json, commander's exits and output through the Io. */
export function docketProgram(command: typeof Command, io: Io, json: boolean): Command {
  return (
    new command("docket")
      .version(VERSION, "-V, --version")
      // Subcommands own their options: `docket report w1 --version 2` is the report's --version, not the program's.
      .enablePositionalOptions()
      .option("--json", "print one JSON object on stdout (accepted anywhere on the command line)")
      .showHelpAfterError("(run with --help for usage)")
      .exitOverride()
      .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => (json ? undefined : io.err(s)) })
  );
}

export function applyExitOverride(cmd: Command): void {
  cmd.exitOverride();
  cmd.commands.forEach(applyExitOverride);
}

/**
 * `--json` anywhere on the line asks for JSON, after `--` too: whatever else the line holds, its answer (a refusal, a
 * usage error) is then one JSON object. Only before `--` is it taken off the arguments; after it, it stays their text.
 */
export function extractJson(argv: string[]): { args: string[]; json: boolean } {
  const end = argv.indexOf("--");
  const head = end === -1 ? argv : argv.slice(0, end);
  const tail = end === -1 ? [] : argv.slice(end);
  return { args: [...head.filter((a) => a !== "--json"), ...tail], json: argv.includes("--json") };
}

/** Prints a failed command line's reason (usage → 2, refusal → 1) the one way every docket verb does. */
export function report(io: Io, error: unknown, CommanderError: typeof import("commander").CommanderError): number {
  if (error instanceof ReportedExit) return error.code;
  if (error instanceof CommanderError) {
    if (error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.version")
      return 0;
    if (io.json) io.out(JSON.stringify({ error: { code: "usage", message: error.message.replace(/^error: /, "") } }));
    return 2;
  }
  const e: DocketError = isDocketError(error)
    ? error
    : new DocketError("internal", "internal-error", error instanceof Error ? error.message : String(error), {
        cause: error,
      });
  if (io.json) io.out(JSON.stringify({ error: errorShape(e) }));
  else io.err(`docket: ${e.message}${e.hint ? ` (${e.hint})` : ""}`);
  if (e.category === "internal" && process.env.DOCKET_DEBUG) io.err(String((error as Error).stack ?? error));
  return exitCodeFor(e);
}
