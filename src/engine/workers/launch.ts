// How a worker process is started: its explicit environment (a 0600 launch env file), the fixed wrapper, the pi argv.
// The wrapper holds no user text: env file, directory and argv arrive as positional parameters
// (docs/decisions/workers.md, docs/decisions/authority.md).

import type { Worker } from "../../domain/workers/worker.js";
import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isEnvName } from "../../domain/workers/launch-env.js";
import type { LaunchExecution } from "../../domain/workers/execution.js";
import { AGENT_TRAITS, isMcpAgent, type McpAgent } from "../../domain/agents/traits.js";
import { readLaunchEnv, removeLaunchEnv, writeLaunchEnv } from "../../files/workers/launch-env.js";
import { WORKER_FILES, hasSessionTranscript, workerPath } from "../../files/workers/worker-files.js";

import type { McpAgentSpec } from "../../substrate/agents/mcp-agent.js";
import { agentConfigDir, mcpAgentInstructions, prepareMcpAgent, previewMcpAgent } from "./agents.js";
import { workerGuardrails } from "./guardrails.js";
import type { EngineContext } from "../context.js";
import { doorSocketFor } from "../door/door.js";

/**
 * `sh -c LAUNCH_WRAPPER docket-worker <env file> <directory> <argv…>`: takes the worker's environment from its own
 * env file, puts Docket's `docket` shim first on its PATH (DOCKET_SHIM: `docket worker …` works by name, contained or
 * on a host), changes to its directory, runs its command, then records the exit of its own generation whatever happened.
 */
export const LAUNCH_WRAPPER =
  '. "$1" || exit 125; PATH="${DOCKET_SHIM:+$DOCKET_SHIM:}$PATH"; export PATH; dir=$2; shift 2; if cd -- "$dir"; then "$@"; code=$?; else code=126; fi; exec "$DOCKET_NODE" "$DOCKET_BIN" worker exited --code "$code"';

/** The directory holding Docket's `docket` shim for workers, beside the bin it runs (bin/shim/docket). */
export function shimDirOf(docketBin: string): string {
  return join(dirname(docketBin), "shim");
}

/**
 * Caller variables every worker gets (tmux does not inherit the caller's environment). Nothing of Docket's own: the
 * worker reaches Docket only through its door (DOCKET_DOOR), never the home, the ledger or the tmux socket
 * (docs/door.md). PI_CODING_AGENT_DIR is pi's own configuration (models, keys), which a pi worker's agent needs to run
 * at all.
 */
export const PASSED_ENV = [
  "PATH",
  "HOME",
  "LANG",
  "TERM",
  "TMPDIR",
  "PI_CODING_AGENT_DIR",
  "PI_OFFLINE",
  "PI_SKIP_VERSION_CHECK",
  "PI_TELEMETRY",
];

const here = dirname(fileURLToPath(import.meta.url));

/** `dist/src/engine/workers` → the package's `bin/docket.js`. */
export function docketBinPath(): string {
  return resolve(here, "..", "..", "..", "..", "bin", "docket.js");
}

/** The compiled pi extension loaded into every pi worker. */
export function extensionPath(): string {
  return resolve(here, "..", "..", "surfaces", "pi", "extension.js");
}

export function tmuxSessionName(ctx: EngineContext): string {
  return ctx.config().tmux.session;
}

export function newRunToken(): string {
  return randomBytes(16).toString("hex");
}

export function launchEnvPath(ctx: EngineContext, worker: string): string {
  return workerPath(ctx.home, worker, WORKER_FILES.launchEnv); // the one place a generation's identity, run token and secrets are written
}

/** Writes the env file a launch reads (0600, replacing the previous generation's). */
export function writeWorkerLaunchEnv(
  ctx: EngineContext,
  worker: string,
  generation: number,
  env: Record<string, string>,
): string {
  const path = launchEnvPath(ctx, worker);
  writeLaunchEnv(
    path,
    env,
    `Docket launch environment of ${worker} generation ${generation}: private to that process; never edit`,
  );
  return path;
}

/**
 * The --env values a respawn reuses: read back from the previous launch's env file, by the names the ledger keeps.
 * Names whose value is gone (a ledger from before values left it, or a deleted file) are listed as missing.
 */
export function storedEnvValues(
  ctx: EngineContext,
  worker: string,
  names: readonly string[],
): { env: Record<string, string>; missing: string[] } {
  const previous = readLaunchEnv(launchEnvPath(ctx, worker)) ?? {};
  const env: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of names) {
    if (Object.hasOwn(previous, name)) env[name] = previous[name]!;
    else missing.push(name);
  }
  return { env, missing };
}

/** Deletes a worker's env file (its secrets go with the worker). */
export function removeWorkerLaunchEnv(ctx: EngineContext, worker: string): void {
  removeLaunchEnv(launchEnvPath(ctx, worker));
}

export function buildWorkerEnv(
  ctx: EngineContext,
  who: { worker: string; generation: number; runToken: string },
  extra: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...PASSED_ENV, ...ctx.config().worker.passEnv]) {
    const value = isEnvName(name) ? ctx.env[name] : undefined;
    if (value !== undefined) env[name] = value;
  }
  if (!env.HOME) env.HOME = homedir();
  Object.assign(env, extra);
  env.DOCKET_DOOR = doorSocketFor(ctx, who.worker, who.generation);
  env.DOCKET_WORKER_ID = who.worker;
  env.DOCKET_GENERATION = String(who.generation);
  env.DOCKET_RUN_TOKEN = who.runToken;
  env.DOCKET_NODE = process.execPath;
  env.DOCKET_BIN = docketBinPath();
  env.DOCKET_SHIM = shimDirOf(env.DOCKET_BIN);
  return env;
}

export function initialPrompt(worker: string, taskFile: string, generation: number): string {
  const restart =
    generation > 1 ? ` You were restarted as generation ${generation}; continue where the session left off.` : "";
  return `You are Docket worker ${worker}. Your task is in ${taskFile}. Read it first, follow the guardrails in your system prompt, and finish with docket_done, docket_wait or docket_fail.${restart}`;
}

/** Where a pi launch finds node, pi, Docket's extension and its earlier session: this machine unless a host says otherwise. */
export interface PiPlace {
  node: string;
  extension: string;
  /** A word of piArgs as it reads there (a host maps paths of Docket's install to its own). */
  arg(word: string): string;
  /** The session dir holds a transcript to continue. */
  hasTranscript(sessionDir: string): boolean;
}

const HERE: PiPlace = {
  node: process.execPath,
  extension: extensionPath(),
  arg: (w) => w,
  hasTranscript: hasSessionTranscript,
};

/** The inner argv (before the wrapper) of one launch. */
export function workerArgv(input: {
  execution: LaunchExecution;
  workerDir: string;
  worker: string;
  generation: number;
  piCli: () => string;
  place?: PiPlace;
}): string[] {
  const ex = input.execution;
  if (AGENT_TRAITS[ex.agent].runsUserCommand) return ["sh", "-c", ex.command ?? "true"];
  const place = input.place ?? HERE;
  const sessionDir = join(input.workerDir, WORKER_FILES.session);
  const resume = input.generation > 1 && place.hasTranscript(sessionDir);
  return [
    place.node,
    input.piCli(),
    "--session-dir",
    sessionDir,
    ...(resume ? ["--continue"] : ex.context === "seeded" && ex.seedFile ? ["--fork", ex.seedFile] : []),
    "-e",
    place.extension,
    ...(ex.model ? ["--model", ex.model] : []),
    "--thinking",
    ex.thinking,
    ...ex.piArgs.map(place.arg),
    initialPrompt(input.worker, join(input.workerDir, WORKER_FILES.task), input.generation),
  ];
}

export function wrapArgv(launch: { envFile: string; cwd: string }, argv: readonly string[]): string[] {
  return ["sh", "-c", LAUNCH_WRAPPER, "docket-worker", launch.envFile, launch.cwd, ...argv];
}

export interface LaunchCommand {
  /** The agent's argv (the launch wrapper goes around it). */
  argv: string[];
  /** Variables the agent needs besides the worker's environment (its private config dir; never secrets). */
  env: Record<string, string>;
}

/** One launch's command: pi and command workers as built above; Claude Code and Codex with their private config written. */
export function launchCommand(
  ctx: EngineContext,
  input: {
    row: Worker;
    execution: LaunchExecution;
    generation: number;
    cwd: string;
    env: Record<string, string>;
    unattended?: boolean;
    contained?: boolean;
  },
): LaunchCommand {
  const ex = input.execution;
  const workerDir = ctx.home.workerDir(input.row.id);
  if (!isMcpAgent(ex.agent))
    return {
      argv: workerArgv({
        execution: ex,
        workerDir,
        worker: input.row.id,
        generation: input.generation,
        piCli: ctx.agents.piCli,
      }),
      env: {},
    };
  const prepared = prepareMcpAgent(
    ctx.agents,
    ex.agent,
    mcpAgentSpec({ ...input, agent: ex.agent, workerDir, instructions: workerGuardrails(ctx, input.row.id) }),
  );
  return { argv: prepared.argv, env: prepared.env };
}

/** What `--dry-run` prints: the inner argv of a new worker's window (its directory shown as `<worker>`). */
export function previewCommand(ctx: EngineContext, execution: LaunchExecution): string[] {
  const workerDir = join(ctx.home.workers, "<worker>"); // not a real id: workerDir() would refuse it
  if (!isMcpAgent(execution.agent))
    return workerArgv({ execution, workerDir, worker: "<worker>", generation: 1, piCli: ctx.agents.piCli });
  const workspace = execution.workspace === "isolated" ? join(workerDir, WORKER_FILES.workspace) : ctx.projectRoot();
  const row = { id: "<worker>", workspace };
  return previewMcpAgent(
    ctx.agents,
    execution.agent,
    mcpAgentSpec({
      row,
      execution,
      agent: execution.agent,
      generation: 1,
      cwd: workspace,
      env: { PATH: ctx.env.PATH ?? "" },
      workerDir,
      instructions: "",
    }),
  );
}

function mcpAgentSpec(input: {
  row: Pick<Worker, "id" | "workspace">;
  execution: LaunchExecution;
  agent: McpAgent;
  generation: number;
  cwd: string;
  env: Record<string, string>;
  workerDir: string;
  instructions: string;
  unattended?: boolean;
  contained?: boolean;
}): McpAgentSpec {
  return {
    configDir: agentConfigDir(input.workerDir, input.agent),
    cwd: input.cwd,
    workspace: input.row.workspace,
    readOnly: input.execution.readOnly,
    model: input.execution.model,
    extraArgs: input.execution.agentArgs ?? [],
    prompt: initialPrompt(input.row.id, join(input.workerDir, WORKER_FILES.task), input.generation),
    instructions: mcpAgentInstructions(input.instructions),
    docket: { node: process.execPath, bin: docketBinPath() },
    env: input.env,
    resume: input.generation > 1,
    ...(input.unattended ? { unattended: true } : {}),
    ...(input.contained ? { contained: true } : {}),
  };
}
