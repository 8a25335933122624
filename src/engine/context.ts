// The engine's dependencies for one process: home layout, ledger, command runner, config, clock.
// Surfaces open one context per invocation and pass it to use-case functions; nothing here runs at import.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig, type DocketConfig } from "../domain/config.js";
import { homeLayout, resolveHomeDir, type HomeLayout } from "../files/home.js";
import { readJsonFile } from "../files/json-file.js";
import { openLedger, type Db } from "../ledger/core/open.js";
import { createCommandRunner, type CommandRunner, type EffectHandler } from "../ledger/core/runner.js";
import { systemClock, type Clock } from "../substrate/clock.js";
import { projectRootOf } from "../substrate/project.js";
import { createEffectHandlers } from "./effects.js";

export interface EngineContext {
  readonly home: HomeLayout;
  readonly db: Db;
  readonly commands: CommandRunner;
  readonly clock: Clock;
  readonly cwd: string;
  /** The caller's environment (never mutated; workers get an explicit copy of what they may see). */
  readonly env: NodeJS.ProcessEnv;
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
  /** Extra outbox effect handlers (a surface may perform notification effects itself). */
  effects?: Record<string, EffectHandler>;
}

export function openEngine(options: OpenEngineOptions): EngineContext {
  const home = homeLayout(resolveHomeDir(options.env));
  mkdirSync(home.root, { recursive: true });
  const db = openLedger(home.ledger);
  const clock = options.clock ?? systemClock;
  const handlers: Record<string, EffectHandler> = { ...(options.effects ?? {}) };
  let root: string | undefined;
  let resolved: ReturnType<typeof resolveConfig> | undefined;
  const ctx: EngineContext = {
    home,
    db,
    commands: createCommandRunner(db, { clock: clock.now, effects: handlers }),
    clock,
    cwd: options.cwd,
    env: options.env,
    projectRoot: () => (root ??= projectRootOf(options.cwd)),
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
    resolved = resolveConfig(user, project);
    resolved.warnings.unshift(...warnings);
    return resolved;
  }
  return ctx;
}
