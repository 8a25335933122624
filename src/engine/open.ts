// Opens one process's engine: the ledger (or its read-only view), the ports, and the outbox effect handlers bound to it.
// The composition point above the use-cases: context.ts stays a type, and the handlers (talk, workers) are wired here.

import { join } from "node:path";
import { resolveConfig } from "../domain/config.js";
import { refusal } from "../domain/errors.js";
import { PARENT_TOOLS_NOTE } from "../domain/parent-tools.js";
import { pathExists } from "../files/probe.js";
import { homeLayout, resolveHomeDir } from "../files/home.js";
import { homeReadOnly, prepareHome } from "../files/home-access.js";
import { readJsonFile } from "../files/json-file.js";
import { removeLegacyStatusFiles } from "../files/workers/legacy-status.js";
import { openLedger } from "../ledger/core/open.js";
import { openLedgerReadOnly } from "../ledger/core/read-only.js";
import { createCommandRunner, type CommandRunner, type EffectHandler } from "../ledger/core/runner.js";
import { systemClock, type Clock } from "../substrate/clock.js";
import { createTmux, type Tmux } from "../substrate/tmux.js";
import { systemGit, type Git } from "../substrate/git/port.js";
import { systemAgents, type Agents } from "../substrate/agents/port.js";
import type { EngineContext } from "./context.js";
import { createEffectHandlers } from "./effects.js";

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
  /** When a command's outbox effects run after its commit (the runner's `afterCommit`); at once by default. */
  afterCommit?: (perform: () => void) => void;
}

export function openEngine(options: OpenEngineOptions): EngineContext {
  const home = homeLayout(resolveHomeDir(options.env));
  // The pi session's tool box shows an empty home with only this note: say so, rather than answer from an empty ledger.
  if (pathExists(join(home.root, PARENT_TOOLS_NOTE)))
    throw refusal(
      "parent-tools-no-home",
      "this runs in the pi session's tool box, where Docket's home is out of reach: it reads nothing and judges nothing; nothing was changed",
      "ask the human: they run docket in pi's editor (/docket …) or in a terminal of their own, and can hand you what they choose (Use → Parent)",
    );
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
    commands: readOnly
      ? refuseEveryCommand(home.root)
      : createCommandRunner(db, { clock: clock.now, effects: handlers, afterCommit: options.afterCommit }),
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
