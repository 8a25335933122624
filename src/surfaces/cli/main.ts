// The `docket` command: one command line on the terminal's Io through the shared verb table; the process
// exits in one place (bin/docket.js sets the exit code this returns). The CLI's composition point: it makes the engine.

import { createIo } from "../shared/io.js";
import type { EngineSession } from "../shared/session.js";
import { extractJson, runCli } from "../shared/verbs/run.js";

export async function main(argv: string[]): Promise<number> {
  let session: EngineSession | undefined;
  const engine = async () => (session ??= await cliSession()).engine;
  try {
    return await runCli(argv, createIo(extractJson(argv).json), { engine });
  } finally {
    await session?.close(); // sends what is due, if the command opened the engine
  }
}

/** Loaded only when a verb's group is: `docket --help` and `--version` load no engine module. */
async function cliSession(): Promise<EngineSession> {
  const { createEngineSession } = await import("../shared/session.js");
  const terminal = { write: (s: string) => void process.stderr.write(s), insideTmux: Boolean(process.env.TMUX) };
  return createEngineSession({
    env: process.env,
    cwd: process.cwd(),
    holder: `cli:${process.pid}`,
    // Asked only when a notification is sent: building process.stderr (on a pipe, a net socket) costs every command.
    get terminal() {
      return process.stderr.isTTY ? terminal : undefined;
    },
  });
}
