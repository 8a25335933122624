// The `docket` command: one command line on the terminal's Io through the shared verb table; the process
// exits in one place (bin/docket.js sets the exit code this returns).

import { createIo } from "../shared/io.js";
import { extractJson, runCli } from "../shared/verbs/run.js";

export async function main(argv: string[]): Promise<number> {
  return runCli(argv, createIo(extractJson(argv).json));
}
