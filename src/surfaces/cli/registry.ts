// The command groups of the `docket` CLI, in help order. Each group registers its commands on the program;
// handlers import their engine modules lazily so `docket --help` and `--version` stay fast.

import type { Command } from "commander";
import type { Io } from "./output.js";
import { registerItemCommands } from "./commands/items.js";
import { registerWorkerCommands } from "./commands/worker.js";
import { registerDispatchCommands } from "./commands/dispatch.js";
import { registerAttentionCommands } from "./commands/attention.js";
import { registerObligationCommands } from "./commands/obligations.js";
import { registerKindsCommand } from "./commands/kinds.js";
import { registerDeliverableCommands } from "./commands/deliverables.js";
import { registerStoreCommands } from "./commands/store.js";
import { registerWorkersCommands } from "./commands/workers.js";
import { registerReviewCommands } from "./commands/review.js";
import { registerUseCommands } from "./commands/use.js";
import { registerDemoCommand } from "./commands/demo.js";

export type CommandGroup = (program: Command, io: Io) => void;

export const COMMAND_GROUPS: readonly CommandGroup[] = [
  registerDemoCommand,
  registerWorkersCommands,
  registerReviewCommands,
  registerUseCommands,
  registerItemCommands,
  registerWorkerCommands,
  registerDispatchCommands,
  registerAttentionCommands,
  registerObligationCommands,
  registerKindsCommand,
  registerDeliverableCommands,
  registerStoreCommands,
];
