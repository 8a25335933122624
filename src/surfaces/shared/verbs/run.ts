// The verb table run: one docket command line against an Io — the CLI and the pi parent run the same verbs.
// Strips --json from anywhere; exit codes: 0 ok, 1 refused or failed (one-line reason), 2 usage (STYLE §17).

import { Command, CommanderError } from "commander";
import { DocketError, errorShape, exitCodeFor, isDocketError } from "../../../domain/errors.js";
import { explainFailure } from "../../../engine/failures.js";
import { createIo, ReportedExit, type Io } from "../io.js";
import { closeEngine } from "../session.js";
import { COMMAND_GROUPS } from "./registry.js";
import { VERSION } from "../version.js";

export interface RunCliOptions {
  /** Keep the engine open after the command (a long-lived host such as the pi parent role). */
  keepEngine?: boolean;
}

/** Runs one docket command line against the given Io; returns the exit code. Never exits the process. */
export async function runCli(argv: string[], io: Io, options: RunCliOptions = {}): Promise<number> {
  const { args, json } = extractJson(argv);
  const program = new Command("docket")
    .description("Run several AI coding-agent workers in parallel without losing control.")
    .version(VERSION, "-V, --version")
    // Subcommands own their options: `docket report w1 --version 2` is the report's --version, not the program's.
    .enablePositionalOptions()
    .option("--json", "print one JSON object on stdout (accepted anywhere on the command line)")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => (json ? undefined : io.err(s)) });
  for (const register of COMMAND_GROUPS) register(program, io);
  program.commands.forEach(applyExitOverride);
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    return report(io, await explainFailure(error, process.env));
  } finally {
    if (!options.keepEngine) closeEngine();
  }
}

/** Top-level verbs and their descriptions, for completion in other hosts (the pi parent role). */
export function listVerbs(): { name: string; description: string; subcommands: string[] }[] {
  const program = new Command("docket");
  const io = createIo(false);
  for (const register of COMMAND_GROUPS) register(program, io);
  return program.commands.map((c) => ({ name: c.name(), description: c.description(), subcommands: c.commands.map((s) => s.name()) }));
}

function applyExitOverride(cmd: Command): void {
  cmd.exitOverride();
  cmd.commands.forEach(applyExitOverride);
}

export function extractJson(argv: string[]): { args: string[]; json: boolean } {
  const end = argv.indexOf("--");
  const head = end === -1 ? argv : argv.slice(0, end);
  const tail = end === -1 ? [] : argv.slice(end);
  const json = head.includes("--json");
  return { args: [...head.filter((a) => a !== "--json"), ...tail], json };
}

function report(io: Io, error: unknown): number {
  if (error instanceof ReportedExit) return error.code;
  if (error instanceof CommanderError) {
    if (error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.version") return 0;
    if (io.json) io.out(JSON.stringify({ error: { code: "usage", message: error.message.replace(/^error: /, "") } }));
    return 2;
  }
  const e: DocketError = isDocketError(error)
    ? error
    : new DocketError("internal", "internal-error", error instanceof Error ? error.message : String(error), { cause: error });
  if (io.json) io.out(JSON.stringify({ error: errorShape(e) }));
  else io.err(`docket: ${e.message}${e.hint ? ` (${e.hint})` : ""}`);
  if (e.category === "internal" && process.env.DOCKET_DEBUG) io.err(String((error as Error).stack ?? error));
  return exitCodeFor(e);
}
