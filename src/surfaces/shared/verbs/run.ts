// The verb table run: one docket command line against an Io (the CLI and the pi parent run the same verbs), loading only
// the chosen verb's group. Strips --json anywhere; exits 0 ok, 1 refused or failed, 2 usage.

import type { Command, Help } from "commander";
import { ReportedExit, visibleIo, type Io } from "../io.js";
import { applyExitOverride, docketProgram, extractJson, report } from "./outcome.js";
import { HELP_HEADINGS, VERB_GROUPS, groupOf, helpHeadingOf } from "./registry.js";
import { VERSION } from "../version.js";
import type { EngineOpener } from "../session.js";

export interface RunCliOptions {
  /**
   * This invocation's engine, asked for only when the chosen verb's group is loaded (`--help` and `--version` load
   * none). Its maker closes it: the CLI's main after the command, a long-lived host such as pi's parent role never.
   */
  engine: () => Promise<EngineOpener>;
}

/** Runs one docket command line against the given Io; returns the exit code. Never exits the process. */
export async function runCli(argv: string[], raw: Io, options: RunCliOptions): Promise<number> {
  const io = visibleIo(raw); // the one output filter: every verb below writes worker text through it
  const { args, json } = extractJson(argv);
  // What commander would print for a leading --version, without loading it.
  if (args[0] === "-V" || args[0] === "--version") {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const { Command, CommanderError, Help } = await import("commander");
  const program = docketProgram(Command, io, json).description(
    "Run several AI coding-agent workers in parallel without losing control.",
  );
  // The other verbs stand in as named placeholders, so help, suggestions and "unknown command" see every verb.
  const chosen = groupOf(chosenVerb(args));
  const placeholders = new WeakMap<Command, string>();
  for (const group of VERB_GROUPS) {
    if (group === chosen) (await group.load())(program, io, await options.engine());
    else
      for (const v of group.verbs)
        placeholders.set(
          program.command(v.name).description(v.description),
          v.usage === "" ? v.name : `${v.name} ${v.usage}`,
        );
  }
  program.configureHelp({
    subcommandTerm(this: Help, cmd: Command) {
      return placeholders.get(cmd) ?? Help.prototype.subcommandTerm.call(this, cmd);
    },
  });
  program.commands.forEach(applyExitOverride);
  // Help lists groups in the order their first verb comes: put the verbs in the headings' order (stable within each).
  const rank = (c: Command) => HELP_HEADINGS.indexOf(helpHeadingOf(c.name()));
  (program.commands as Command[])
    .sort((a, b) => rank(a) - rank(b))
    .forEach((c) => c.helpGroup(helpHeadingOf(c.name())));
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError || error instanceof ReportedExit) return report(io, error, CommanderError);
    // Loaded only on failure: it names a damaged ledger, an unusable home or a full disk (it may open SQLite).
    const { explainFailure } = await import("../../../engine/failures.js");
    return report(io, await explainFailure(error, process.env), CommanderError);
  }
}

/** The verb a command line runs (the first word that is not a program option; `help <verb>` names it too). */
function chosenVerb(args: readonly string[]): string | undefined {
  const i = args.findIndex((a) => !a.startsWith("-"));
  if (i === -1) return undefined;
  return args[i] === "help" ? args[i + 1] : args[i];
}

/** Top-level verbs and their descriptions, for completion in other hosts (the pi parent role). */
export function listVerbs(): { name: string; description: string; subcommands: string[] }[] {
  return VERB_GROUPS.flatMap((g) =>
    g.verbs.map((v) => ({ name: v.name, description: v.description, subcommands: [...(v.subcommands ?? [])] })),
  );
}

export { extractJson };
