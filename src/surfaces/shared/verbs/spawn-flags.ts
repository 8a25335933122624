// The flags of `docket spawn` and the spawn input they make for one worker: a plain spawn makes one, --best-of one
// per candidate (with that candidate's agent, model and steps file).

import { fileURLToPath } from "node:url";
import type { WorkerAgent } from "../../../domain/workers/spawn-policy.js";
import { scriptedSpawnInput } from "../../../engine/workers/scripted.js";
import type { SpawnInput } from "../../../engine/workers/spawn.js";
import type { Io } from "../io.js";
import { parseAssignments } from "./args.js";

export interface SpawnFlags {
  bestOf?: number;
  budget?: number;
  agent?: string;
  dryRun?: boolean;
  cmd?: string;
  as?: string;
  model?: string;
  thinking?: string;
  seed?: string;
  fresh?: boolean;
  worktree?: boolean;
  item: string[];
  env: string[];
  yes?: boolean;
  scripted?: string;
  wait?: boolean;
  host?: string;
  local?: boolean;
}

const SCRIPTED_EXTENSION = () => fileURLToPath(new URL("../../pi/scripted-model.js", import.meta.url));

/** One worker's launch as the flags describe it (a --scripted worker made a pi worker of Docket's scripted model). */
export function spawnInputOf(io: Io, words: string[], opts: SpawnFlags, cwd: string): SpawnInput {
  const input: SpawnInput = {
    task: words.join(" "),
    agent: opts.agent as WorkerAgent | undefined,
    command: opts.cmd,
    kind: opts.as,
    model: opts.model,
    thinking: opts.thinking,
    seedFile: opts.seed,
    fresh: opts.fresh,
    worktree: opts.worktree,
    env: parseAssignments("--env", opts.env),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.local ? { local: true } : {}),
    ...(io.parent ? { parent: io.parent } : {}),
  };
  return opts.scripted === undefined ? input : scriptedSpawnInput(input, opts.scripted, SCRIPTED_EXTENSION(), cwd);
}
