// The command groups of the `docket` CLI, in help order. Each group registers its commands on the program;
// handlers import their engine modules lazily so `docket --help` and `--version` stay fast.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { registerItemCommands } from "./items.js";
import { registerWorkerCommands } from "./worker.js";
import { registerDispatchCommands } from "./dispatch.js";
import { registerAttentionCommands } from "./attention.js";
import { registerObligationCommands } from "./obligations.js";
import { registerKindsCommand } from "./kinds.js";
import { registerDeliverableCommands } from "./deliverables.js";
import { registerStoreCommands } from "./store.js";
import { registerWorkersCommands } from "./workers.js";
import { registerReviewCommands } from "./review.js";
import { registerUseCommands } from "./use.js";
import { registerDemoCommand } from "./demo.js";
import { registerMcpCommand } from "./mcp.js";
import { registerDoctorCommand } from "./doctor.js";
import { registerWebCommand } from "./web.js";
import { registerBroadcastCommands } from "./broadcast.js";
import { registerCombineCommand } from "./combine.js";

export type CommandGroup = (program: Command, io: Io) => void;

export const COMMAND_GROUPS: readonly CommandGroup[] = [
  registerDemoCommand,
  registerWorkersCommands,
  registerReviewCommands,
  registerCombineCommand,
  registerBroadcastCommands,
  registerWebCommand,
  registerUseCommands,
  registerItemCommands,
  registerWorkerCommands,
  registerDispatchCommands,
  registerAttentionCommands,
  registerObligationCommands,
  registerKindsCommand,
  registerDeliverableCommands,
  registerStoreCommands,
  registerDoctorCommand,
  registerMcpCommand,
];
