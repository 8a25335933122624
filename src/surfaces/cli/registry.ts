// The command groups of the `docket` CLI, in help order. Each group registers its commands on the program;
// handlers import their engine modules lazily so `docket --help` and `--version` stay fast.

import type { Command } from "commander";
import type { Io } from "./output.js";
import { registerItemCommands } from "./commands/items.js";
import { registerWorkerCommands } from "./commands/worker.js";

export type CommandGroup = (program: Command, io: Io) => void;

export const COMMAND_GROUPS: readonly CommandGroup[] = [registerItemCommands, registerWorkerCommands];
