// `docket mcp` in the verb table: listed for help and completion; the server itself is its own surface (bin routes it).
// Reached here only from a host that runs verbs in-process (the pi parent), where serving stdio makes no sense.

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import type { Io } from "../io.js";
import { declareVerb } from "./registry.js";

export function registerMcpCommand(program: Command, _io: Io): void {
  declareVerb(program, "mcp").action(() => {
    throw usageError(
      "mcp-own-process",
      "`docket mcp` runs as its own process that an agent starts over stdio",
      'configure the agent to run `docket mcp`; `docket spawn --agent claude "<task>"` does it for you',
    );
  });
}
