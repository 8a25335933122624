// Docket's settings: defaults, validation, and the merge rule between user and project config.
// A project config may narrow but never widen what reaches the model or what workers may do (docs/hostile-judgment.md).
// The shape and defaults live in config-shape.ts; each section's rule in config-sections.ts and config-sandbox.ts.

import { DEFAULT_CONFIG, type DocketConfig } from "./config-shape.js";
import { applyNetworkEnv, applySandbox, applySandboxMode } from "./config-sandbox.js";
import {
  applyAgents,
  applyBudget,
  applyFleet,
  applyHosts,
  applyMessaging,
  applyNotify,
  applyWorker,
  isObj,
} from "./config-sections.js";
import { applyDoorLimits } from "./door-limits.js";

export {
  DEFAULT_CONFIG,
  DEFAULT_SANDBOX_MODE,
  isKeyName,
  MIN_CONSULT_WINDOW_SECONDS,
  SANDBOX_MODES,
  type DocketConfig,
  type SandboxConfig,
  type SandboxMode,
} from "./config-shape.js";

export interface ConfigResult {
  config: DocketConfig;
  warnings: string[];
}

/** The variables of the human's environment that configure Docket. */
export interface ConfigEnv {
  DOCKET_SANDBOX?: string | undefined;
  DOCKET_NETWORK?: string | undefined;
  DOCKET_NETWORK_ALLOW?: string | undefined;
}

/**
 * Merges defaults ← user ← project. Keys that widen authority (pi.extraArgs, worker.passEnv, worker.agent,
 * worker.parentSeedPolicy, messaging, tmux.session, keys) are read from the user file only; a project may lower
 * maxActive and the door's limits but not raise them, and keep workers longer before a prune but not shorter. Unknown or malformed keys
 * become warnings.
 */
export function resolveConfig(user: unknown, project: unknown, env: ConfigEnv = {}): ConfigResult {
  const warnings: string[] = [];
  const config: DocketConfig = structuredClone(DEFAULT_CONFIG);
  apply(config, user, "user", warnings, true);
  // DOCKET_SANDBOX is the human's own environment: it stands above the user config, and a project still only
  // tightens.
  if (env.DOCKET_SANDBOX !== undefined && env.DOCKET_SANDBOX !== "") {
    applySandboxMode(config, env.DOCKET_SANDBOX, warnings);
  }
  applyNetworkEnv(config, env, warnings); // DOCKET_NETWORK, DOCKET_NETWORK_ALLOW: the same, for one command
  apply(config, project, "project", warnings, false);
  return { config, warnings };
}

/** One file's settings over the ones so far, section by section, in the order their warnings are listed. */
function apply(config: DocketConfig, raw: unknown, source: string, warnings: string[], trusted: boolean): void {
  if (raw === undefined || raw === null) return;
  if (!isObj(raw)) {
    warnings.push(`${source} config is not a JSON object; ignored`);
    return;
  }
  applyFleet(config, raw, source, warnings, trusted);
  if (isObj(raw.worker)) applyWorker(config, raw.worker, source, warnings, trusted);
  if (raw.sandbox !== undefined) applySandbox(config, raw.sandbox, source, warnings, trusted);
  applyAgents(config, raw, source, warnings, trusted);
  if (raw.messaging !== undefined) applyMessaging(config, raw.messaging, source, warnings, trusted);
  if (raw.notify !== undefined) applyNotify(config, raw.notify, source, warnings, trusted);
  if (raw.hosts !== undefined) applyHosts(config, raw.hosts, source, warnings, trusted);
  if (isObj(raw.worker) && raw.worker.budgetUsd !== undefined) {
    applyBudget(config, raw.worker.budgetUsd, source, warnings, trusted);
  }
  if (isObj(raw.door)) applyDoorLimits(config.door, raw.door, source, warnings, trusted);
  else if (raw.door !== undefined) warnings.push(`${source} config door must be an object; ignored`);
}
