// Each section of a config file applied onto the settings so far: a malformed key or one the file may not set is a
// warning and changes nothing. `trusted` is the user's own file; a project's may only narrow
// (docs/hostile-judgment.md).

import { MIN_CONSULT_WINDOW_SECONDS, isKeyName, type DocketConfig } from "./config-shape.js";
import { isHostName, parseHosts } from "./hosts.js";
import { WORKER_AGENTS, isWorkerAgent } from "./agents/traits.js";

export type Raw = Record<string, unknown>;

/** One section of one config file over the settings so far; `source` names the file in warnings, `trusted` is the user's. */
export type SectionApplier<R = unknown> = (
  config: DocketConfig,
  raw: R,
  source: string,
  warnings: string[],
  trusted: boolean,
) => void;

export const isObj = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
export const strList = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined;

function nonNegative(v: unknown, key: string, source: string, warnings: string[]): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
  warnings.push(`${source} config ${key} must be a non-negative number; ignored`);
  return undefined;
}

/** maxActive (a project may only lower it), obligationDueMinutes and implementKind. */
export const applyFleet: SectionApplier<Raw> = (config, raw, source, warnings, trusted) => {
  const maxActive = nonNegative(raw.maxActive, "maxActive", source, warnings);
  if (maxActive !== undefined) {
    const lowers = maxActive > 0 && (config.maxActive === 0 || maxActive <= config.maxActive);
    if (trusted || lowers) config.maxActive = maxActive;
    else warnings.push(`${source} config maxActive ${maxActive} would raise the fleet cap; only your user config can`);
  }
  const due = nonNegative(raw.obligationDueMinutes, "obligationDueMinutes", source, warnings);
  if (due !== undefined) config.obligationDueMinutes = due;
  if (typeof raw.implementKind === "string") {
    config.implementKind = raw.implementKind;
    config.worker.kindChoicesFrom = { ...config.worker.kindChoicesFrom, implementKind: trusted ? "user" : "project" };
  }
};

/** The `worker` section; every key but defaultKind, pruneAfterHours and stuckMinutes is the user's alone. */
export const applyWorker: SectionApplier<Raw> = (config, w, source, warnings, trusted) => {
  const at = `${source} config worker`;
  if (typeof w.defaultKind === "string") {
    config.worker.defaultKind = w.defaultKind;
    config.worker.kindChoicesFrom = { ...config.worker.kindChoicesFrom, defaultKind: trusted ? "user" : "project" };
  }
  if (w.parentSeedPolicy !== undefined) {
    // Seeding hands your whole conversation to a worker's model: a cloned project may not choose it
    // (docs/hostile-judgment.md).
    if (!trusted) {
      warnings.push(
        `${at}.parentSeedPolicy ignored: only your user config may choose what of your conversation reaches a worker`,
      );
    } else if (w.parentSeedPolicy === "fresh" || w.parentSeedPolicy === "full") {
      config.worker.parentSeedPolicy = w.parentSeedPolicy;
    } else warnings.push(`${at}.parentSeedPolicy must be "fresh" or "full"; ignored`);
  }
  if (w.agent !== undefined) {
    if (!trusted) warnings.push(`${at}.agent ignored: only your user config may choose which agent sees your code`);
    else if (typeof w.agent === "string" && isWorkerAgent(w.agent)) config.worker.agent = w.agent;
    else warnings.push(`${at}.agent must be one of ${WORKER_AGENTS.join(", ")}; ignored`);
  }
  const prune = nonNegative(w.pruneAfterHours, "worker.pruneAfterHours", source, warnings);
  // `docket prune` deletes across every project: a project may keep workers longer, never make them go sooner.
  if (prune !== undefined) {
    const kept = config.worker.pruneAfterHours;
    if (trusted || prune >= kept) config.worker.pruneAfterHours = prune;
    else warnings.push(`${at}.pruneAfterHours ${prune} would prune sooner than ${kept}; only your user config can`);
  }
  const stuck = nonNegative(w.stuckMinutes, "worker.stuckMinutes", source, warnings);
  if (stuck !== undefined) config.worker.stuckMinutes = stuck;
  if (w.passEnv !== undefined) {
    const list = strList(w.passEnv);
    if (!trusted) warnings.push(`${at}.passEnv ignored: only your user config may pass variables to workers`);
    else if (list) config.worker.passEnv = list;
    else warnings.push(`${at}.passEnv must be a list of names; ignored`);
  }
  if (w.unattended !== undefined) {
    if (!trusted) {
      warnings.push(`${at}.unattended ignored: only your user config may turn agents' permission prompts off`);
    } else if (typeof w.unattended === "boolean") config.worker.unattended = w.unattended;
    else warnings.push(`${at}.unattended must be true or false; ignored`);
  }
  if (w.host !== undefined) {
    if (!trusted) warnings.push(`${at}.host ignored: only your user config may choose the machine workers run on`);
    else if (typeof w.host === "string" && isHostName(w.host)) config.worker.host = w.host;
    else warnings.push(`${at}.host must be the name of one of your hosts (docket hosts ls); ignored`);
  }
};

/** How the agents run: pi's arguments and fleet key, Claude Code's and Codex's arguments, the tmux session. */
export const applyAgents: SectionApplier<Raw> = (config, raw, source, warnings, trusted) => {
  if (isObj(raw.pi) && raw.pi.extraArgs !== undefined) {
    const list = strList(raw.pi.extraArgs);
    if (!trusted) warnings.push(`${source} config pi.extraArgs ignored: only your user config may change how pi runs`);
    else if (list) config.pi.extraArgs = list;
    else warnings.push(`${source} config pi.extraArgs must be a list of strings; ignored`);
  }
  if (isObj(raw.pi) && raw.pi.fleetKey !== undefined) {
    const key = raw.pi.fleetKey;
    if (!trusted) warnings.push(`${source} config pi.fleetKey ignored: only your user config sets your keys`);
    else if (typeof key === "string" && (key === "" || isKeyName(key))) config.pi.fleetKey = key;
    else {
      warnings.push(
        `${source} config pi.fleetKey must be a key such as "f8" or "ctrl+shift+f" (or "" for none); ignored`,
      );
    }
  }
  for (const agent of ["claude", "codex"] as const) {
    const section = raw[agent];
    if (!isObj(section) || section.extraArgs === undefined) continue;
    const list = strList(section.extraArgs);
    if (!trusted) {
      warnings.push(`${source} config ${agent}.extraArgs ignored: only your user config may change how ${agent} runs`);
    } else if (list) config[agent].extraArgs = list;
    else warnings.push(`${source} config ${agent}.extraArgs must be a list of strings; ignored`);
  }
  if (isObj(raw.tmux) && typeof raw.tmux.session === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(raw.tmux.session)) {
    if (trusted) config.tmux.session = raw.tmux.session;
    else warnings.push(`${source} config tmux.session ignored: only your user config may choose the tmux session`);
  }
};

/** The user's hosts; a project's are only remembered by name, to refuse them when asked for. */
export const applyHosts: SectionApplier = (config, raw, source, warnings, trusted) => {
  if (trusted) {
    config.hosts = parseHosts(raw, source, warnings);
    return;
  }
  config.projectHosts = isObj(raw) ? Object.keys(raw) : [];
  warnings.push(
    `${source} config hosts ignored: a project may not add hosts; only your user config can (docket hosts add)`,
  );
};

export const applyBudget: SectionApplier = (config, b, source, warnings, trusted) => {
  if (!trusted) {
    warnings.push(`${source} config worker.budgetUsd ignored: only your user config sets what workers may spend`);
  } else if (typeof b === "number" && Number.isFinite(b) && b >= 0) config.budgetUsd = b;
  else warnings.push(`${source} config worker.budgetUsd must be a non-negative number of US dollars; ignored`);
};

export const applyNotify: SectionApplier = (config, raw, source, warnings, trusted) => {
  if (!trusted) {
    // A sink sends worker text to another program: a cloned project may not choose where it goes.
    warnings.push(`${source} config notify ignored: only your user config may choose where notifications go`);
    return;
  }
  if (!isObj(raw)) {
    warnings.push(`${source} config notify must be an object; ignored`);
    return;
  }
  for (const key of ["desktop", "web", "terminal"] as const) {
    if (raw[key] === undefined) continue;
    if (typeof raw[key] === "boolean") config.notify[key] = raw[key];
    else warnings.push(`${source} config notify.${key} must be true or false; ignored`);
  }
  if (raw.command !== undefined) {
    const list = strList(raw.command);
    if (list && (list.length === 0 || list[0] !== "")) config.notify.command = list;
    else {
      warnings.push(
        `${source} config notify.command must be a list of strings (an argv such as ["ntfy", "publish", "mytopic"]); ` +
          "ignored",
      );
    }
  }
  if (raw.openCommand !== undefined) {
    const list = strList(raw.openCommand);
    if (list && list.length > 0 && list[0] !== "") config.notify.openCommand = list;
    else {
      warnings.push(
        `${source} config notify.openCommand must be a non-empty list of strings ` +
          '(an argv such as ["firefox", "--new-tab"]); ignored',
      );
    }
  }
  if (raw.batchSeconds !== undefined) {
    const n = raw.batchSeconds;
    if (typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= 60) config.notify.batchSeconds = n;
    else warnings.push(`${source} config notify.batchSeconds must be a number from 0 to 60; ignored`);
  }
};

export const applyMessaging: SectionApplier = (config, raw, source, warnings, trusted) => {
  if (!isObj(raw)) {
    warnings.push(`${source} config messaging must be an object; ignored`);
    return;
  }
  if (!trusted) {
    // Auto-answer widens what reaches a model (a worker's words go to your session's model): a cloned project may
    // not turn it on.
    warnings.push(`${source} config messaging ignored: only your user config may change the consult lane`);
    return;
  }
  if (raw.autoAnswer !== undefined) {
    if (typeof raw.autoAnswer === "boolean") config.messaging.autoAnswer = raw.autoAnswer;
    else warnings.push(`${source} config messaging.autoAnswer must be true or false; ignored`);
  }
  if (raw.consultWindowSeconds !== undefined) {
    const n = raw.consultWindowSeconds;
    if (typeof n === "number" && Number.isFinite(n) && n > 0) {
      config.messaging.consultWindowSeconds = Math.max(MIN_CONSULT_WINDOW_SECONDS, n);
    } else warnings.push(`${source} config messaging.consultWindowSeconds must be a positive number; ignored`);
  }
};
