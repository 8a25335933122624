// The engine's dependencies for one process: home layout, ledger, command runner, config, clock, and the tmux, git and agent ports.
// Surfaces open one context per invocation and pass it to use-case functions; nothing here runs at import.

import { join } from "node:path";
import { resolveConfig, type DocketConfig } from "../domain/config.js";
import { homeLayout, resolveHomeDir, type HomeLayout } from "../files/home.js";
import { homeReadOnly, prepareHome } from "../files/home-access.js";
import { readJsonFile } from "../files/json-file.js";
import { removeLegacyStatusFiles } from "../files/workers/legacy-status.js";
import { openLedger, type Db } from "../ledger/core/open.js";
import { openLedgerReadOnly } from "../ledger/core/read-only.js";
import { createCommandRunner, type CommandRunner, type EffectHandler } from "../ledger/core/runner.js";
import { systemClock, type Clock } from "../substrate/clock.js";
import { createTmux, type Tmux } from "../substrate/tmux.js";
import { systemGit, type Git } from "../substrate/git/port.js";
import { systemAgents, type Agents } from "../substrate/agents/port.js";
import { createEffectHandlers } from "./effects.js";

export interface EngineContext {
  readonly home: HomeLayout;
  readonly db: Db;
  readonly commands: CommandRunner;
  readonly clock: Clock;
  /** The home cannot be written: the ledger is open read-only and every command is refused with `home-read-only`. */
  readonly readOnly: boolean;
  readonly cwd: string;
  /** The caller's environment (never mutated; workers get an explicit copy of what they may see). */
  readonly env: NodeJS.ProcessEnv;
  /** The tmux server workers run on (`DOCKET_TMUX_SOCKET`); tests may pass an in-memory one. Made on first use. */
  readonly tmux: Tmux;
  /** Every git operation the engine asks for; tests may pass another. */
  readonly git: Git;
  /** The agents workers run (pi, Claude Code, Codex): found, listed and prepared; tests may pass another. */
  readonly agents: Agents;
  /** git top-level of cwd, or cwd. */
  projectRoot(): string;
  config(): DocketConfig;
  configWarnings(): string[];
  close(): void;
}

export interface OpenEngineOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  clock?: Clock;
  /** The tmux port; by default the real server `DOCKET_TMUX_SOCKET` names. */
  tmux?: Tmux;
  /** The git port; by default the real git. */
  git?: Git;
  /** The launcher port; by default the agents on this machine. */
  agents?: Agents;
  /** Extra outbox effect handlers (a surface may perform notification effects itself). */
  effects?: Record<string, EffectHandler>;
}

export function openEngine(options: OpenEngineOptions): EngineContext {
  const home = homeLayout(resolveHomeDir(options.env));
  const readOnly = prepareHome(home) === "read-only";
  const db = readOnly ? openLedgerReadOnly(home.ledger) : openLedger(home.ledger);
  if (!readOnly) removeLegacyStatusFiles(home); // a home shared with pi-docket: its worker list must not see ours
  const clock = options.clock ?? systemClock;
  const handlers: Record<string, EffectHandler> = { ...(options.effects ?? {}) };
  let root: string | undefined;
  let resolved: ReturnType<typeof resolveConfig> | undefined;
  let tmux = options.tmux;
  const git = options.git ?? systemGit;
  const ctx: EngineContext = {
    home,
    db,
    commands: readOnly ? refuseEveryCommand(home.root) : createCommandRunner(db, { clock: clock.now, effects: handlers }),
    clock,
    readOnly,
    cwd: options.cwd,
    env: options.env,
    git,
    agents: options.agents ?? systemAgents,
    get tmux() {
      return (tmux ??= createTmux(options.env.DOCKET_TMUX_SOCKET, options.env));
    },
    projectRoot: () => (root ??= git.projectRootOf(options.cwd)),
    config: () => loadConfig().config,
    configWarnings: () => loadConfig().warnings,
    close: () => db.close(),
  };
  for (const [kind, handler] of Object.entries(createEffectHandlers(ctx))) handlers[kind] ??= handler;
  function loadConfig() {
    if (resolved) return resolved;
    const warnings: string[] = [];
    const read = (path: string) => {
      const r = readJsonFile(path);
      if (r.ok === true) return r.value;
      if (r.ok === false) warnings.push(`${r.reason}; ignored`);
      return undefined;
    };
    const user = read(home.config);
    const project = read(join(ctx.projectRoot(), ".docket", "config.json"));
    resolved = resolveConfig(user, project, options.env);
    resolved.warnings.unshift(...warnings);
    return resolved;
  }
  return ctx;
}

/** The runner of a read-only home: reading works, recording anything is one named refusal. */
function refuseEveryCommand(root: string): CommandRunner {
  return {
    run: () => {
      throw homeReadOnly(root, "is read-only");
    },
    runAll: () => {
      throw homeReadOnly(root, "is read-only");
    },
    drainOutbox: () => 0,
  };
}
