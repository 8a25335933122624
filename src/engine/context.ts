// The engine's dependencies for one process: home layout, ledger, command runner, config, clock, and the tmux, git and agent ports.
// The ground floor: a type every use-case takes, importing nothing from engine/; engine/open.ts composes one.

import type { DocketConfig } from "../domain/config.js";
import type { HomeLayout } from "../files/home.js";
import type { Db } from "../ledger/core/open.js";
import type { CommandRunner } from "../ledger/core/runner.js";
import type { Clock } from "../substrate/clock.js";
import type { Tmux } from "../substrate/tmux.js";
import type { Git } from "../substrate/git/port.js";
import type { Agents } from "../substrate/agents/port.js";

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
