// `docket mcp` in the verb table: listed for help and completion; the server itself is its own surface (bin routes it).
// Reached here only from a host that runs verbs in-process (the pi parent), where serving stdio makes no sense.

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import type { Io } from "../io.js";

export function registerMcpCommand(program: Command, _io: Io): void {
  program
    .command("mcp")
    .description(
      "serve the worker protocol (docket_todos, docket_wait, docket_done, docket_fail, docket_consult, docket_note) over MCP on stdio, for Claude Code, Codex and other agents",
    )
    .action(() => {
      throw usageError(
        "mcp-own-process",
        "`docket mcp` runs as its own process that an agent starts over stdio",
        'configure the agent to run `docket mcp`; `docket spawn --agent claude "<task>"` does it for you',
      );
    });
}
