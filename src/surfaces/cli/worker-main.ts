// `docket worker …` as its own small program: the worker verbs only, speaking to the worker's door, so a worker's call
// loads neither SQLite nor the engine nor the other verbs (bin/docket.js sends `worker` command lines here).

import { createIo } from "../shared/io.js";
import { applyExitOverride, docketProgram, extractJson, report } from "../shared/verbs/outcome.js";
import { registerWorkerCommands } from "../shared/verbs/worker.js";

export async function main(argv: string[]): Promise<number> {
  const { args, json } = extractJson(argv);
  const io = createIo(json);
  const { Command, CommanderError } = await import("commander");
  const program = docketProgram(Command, io, json);
  registerWorkerCommands(program, io);
  program.commands.forEach(applyExitOverride);
  try {
    await program.parseAsync(args, { from: "user" });
    return 0;
  } catch (error) {
    return report(io, error, CommanderError);
  }
}
