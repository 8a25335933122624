// `docket worker …` as its own small program: the worker verbs only, speaking to the worker's door, so a worker's call
// loads neither SQLite nor the engine nor the other verbs (bin/docket.js sends `worker` command lines here).

import { createIo } from "../shared/io.js";
import { applyExitOverride, extractJson, report } from "../shared/verbs/outcome.js";
import { registerWorkerCommands } from "../shared/verbs/worker.js";
import { VERSION } from "../shared/version.js";

export async function main(argv: string[]): Promise<number> {
  const { args, json } = extractJson(argv);
  const io = createIo(json);
  const { Command, CommanderError } = await import("commander");
  const program = new Command("docket")
    .version(VERSION, "-V, --version")
    .enablePositionalOptions()
    .option("--json", "print one JSON object on stdout (accepted anywhere on the command line)")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => (json ? undefined : io.err(s)) });
  registerWorkerCommands(program, io);
  program.commands.forEach(applyExitOverride);
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    return report(io, error, CommanderError);
  }
}
