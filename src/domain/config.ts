// Docket's settings: defaults, validation, and the merge rule between user and project config.
// A project config may narrow but never widen what reaches the model or what workers may do (DESIGN §3).

import { WORKER_AGENTS, isWorkerAgent, type WorkerAgent } from "./workers/spawn-policy.js";
import { isHostName, parseHosts, type HostEntry } from "./hosts.js";

export interface DocketConfig {
  /** Fleet cap over live workers; 0 disables. */
  maxActive: number;
  /** Minutes after dispatch before an obligation is due. */
  obligationDueMinutes: number;
  /** Kind used by Use → Implement. */
  implementKind: string;
  worker: {
    /** The agent of `docket spawn` without --agent (user config only: it decides which vendor sees the code). */
    agent: WorkerAgent;
    defaultKind?: string;
    /** Which file chose defaultKind / implementKind: a project's choice may not widen authority (checked with kinds). */
    kindChoicesFrom?: { defaultKind?: "user" | "project"; implementKind?: "user" | "project" };
    parentSeedPolicy?: "fresh" | "full";
    /** Names of variables copied from the caller's environment into every worker (user config only). */
    passEnv: string[];
    pruneAfterHours: number;
    /** Claude Code and Codex run with their own permission prompts off; allowed only for contained workers (user config only). */
    unattended: boolean;
    /** The host of the user's config new workers run on unless `spawn --local` (user config only: it decides where code goes). */
    host?: string;
  };
  /** Containment (docs/containment.md): a project may require it or cut the network, never turn it off. */
  sandbox: SandboxConfig;
  pi: {
    /** Extra arguments for every pi worker (user config or DOCKET_PI_ARGS only). */
    extraArgs: string[];
    /** The key that opens the fleet dashboard inside pi (a pi key id such as `f8`); empty: none (user config only). */
    fleetKey: string;
  };
  /** Extra arguments for every Claude Code worker (user config only). */
  claude: { extraArgs: string[] };
  /** Extra arguments for every Codex worker, e.g. `-c` provider settings (user config only). */
  codex: { extraArgs: string[] };
  tmux: { session: string };
  /** The consult lane (user config only: turning it on sends workers' consults to your session's model). */
  messaging: {
    /** The parent agent answers workers' consults; off, a consult is an ordinary question for the human. */
    autoAnswer: boolean;
    /** How long the parent agent has to answer before the consult becomes the human's question. */
    consultWindowSeconds: number;
  };
  /** Notifications outside the terminal (user config only: they send worker text to other programs). */
  notify: {
    desktop: boolean;
    /** The review page's browser notifications (the tab title's count is always shown). */
    web: boolean;
    /** OSC 777/9 to the terminal of the process that sends (tmux passthrough inside tmux). */
    terminal: boolean;
    /** An argv run once per batch with one JSON line per event on stdin; empty: off. */
    command: string[];
    /** Events within this many seconds of the first go out as one message. */
    batchSeconds: number;
    /** The argv a click on a desktop notification runs, with the card's address appended. */
    openCommand: string[];
  };
  /** A default budget in USD for every worker without `--budget`; 0: none (user config only). */
  budgetUsd: number;
  /** Machines workers may run on over ssh (user config only: a host is where your code and secrets go). */
  hosts: Record<string, HostEntry>;
  /** Host names a project config tried to add: refused by name when asked for (never used). */
  projectHosts: string[];
}

export type SandboxMode = "auto" | "required" | "off";
export const SANDBOX_MODES: readonly SandboxMode[] = ["auto", "required", "off"];
export const DEFAULT_SANDBOX_MODE: SandboxMode = "auto";

export interface SandboxConfig {
  /** `auto`: contain wherever bubblewrap works; `required`: refuse to spawn otherwise; `off`: never contain. */
  mode: SandboxMode;
  /** `none`: contained workers get no network at all; `default`: the machine's network, as uncontained. */
  network: "default" | "none";
  /** Host paths a contained worker may read although they sit under /tmp or a hidden place (user config only). */
  readOnlyPaths: string[];
}

/** The shortest consult window honoured: anything lower is raised to this. */
export const MIN_CONSULT_WINDOW_SECONDS = 5;

export const DEFAULT_CONFIG: DocketConfig = {
  maxActive: 8,
  obligationDueMinutes: 60,
  implementKind: "implementer",
  worker: { agent: "pi", passEnv: [], pruneAfterHours: 24, unattended: false },
  // "off" until the worker door lands (issue 24): a contained worker still opens the ledger before it. Then: "auto".
  sandbox: { mode: DEFAULT_SANDBOX_MODE, network: "default", readOnlyPaths: [] },
  pi: { extraArgs: [], fleetKey: "f8" },
  claude: { extraArgs: [] },
  codex: { extraArgs: [] },
  tmux: { session: "docket-workers" },
  messaging: { autoAnswer: false, consultWindowSeconds: 90 },
  notify: { desktop: false, web: true, terminal: false, command: [], batchSeconds: 3, openCommand: ["xdg-open"] },
  budgetUsd: 0,
  hosts: {},
  projectHosts: [],
};

export interface ConfigResult {
  config: DocketConfig;
  warnings: string[];
}

type Raw = Record<string, unknown>;

const isObj = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
const strList = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined);

/**
 * Merges defaults ← user ← project. Keys that widen authority (pi.extraArgs, worker.passEnv, worker.agent,
 * worker.parentSeedPolicy, messaging, tmux.session, keys) are read from the user file only; a project may lower
 * maxActive but not raise it, and keep workers longer before a prune but not shorter. Unknown or malformed keys become warnings.
 */
export function resolveConfig(user: unknown, project: unknown, env: ConfigEnv = {}): ConfigResult {
  const warnings: string[] = [];
  const config: DocketConfig = structuredClone(DEFAULT_CONFIG);
  apply(config, user, "user", warnings, true);
  // DOCKET_SANDBOX is the human's own environment: it stands above the user config, and a project still only tightens.
  if (env.DOCKET_SANDBOX !== undefined && env.DOCKET_SANDBOX !== "") applySandboxMode(config, env.DOCKET_SANDBOX, warnings);
  apply(config, project, "project", warnings, false);
  return { config, warnings };
}

function apply(config: DocketConfig, raw: unknown, source: string, warnings: string[], trusted: boolean): void {
  if (raw === undefined || raw === null) return;
  if (!isObj(raw)) {
    warnings.push(`${source} config is not a JSON object; ignored`);
    return;
  }
  const num = (v: unknown, key: string): number | undefined => {
    if (v === undefined) return undefined;
    if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
    warnings.push(`${source} config ${key} must be a non-negative number; ignored`);
    return undefined;
  };
  const maxActive = num(raw.maxActive, "maxActive");
  if (maxActive !== undefined) {
    if (trusted || (maxActive > 0 && (config.maxActive === 0 || maxActive <= config.maxActive))) config.maxActive = maxActive;
    else warnings.push(`${source} config maxActive ${maxActive} would raise the fleet cap; only your user config can`);
  }
  const due = num(raw.obligationDueMinutes, "obligationDueMinutes");
  if (due !== undefined) config.obligationDueMinutes = due;
  if (typeof raw.implementKind === "string") {
    config.implementKind = raw.implementKind;
    config.worker.kindChoicesFrom = { ...config.worker.kindChoicesFrom, implementKind: trusted ? "user" : "project" };
  }
  if (isObj(raw.worker)) {
    const w = raw.worker;
    if (typeof w.defaultKind === "string") {
      config.worker.defaultKind = w.defaultKind;
      config.worker.kindChoicesFrom = { ...config.worker.kindChoicesFrom, defaultKind: trusted ? "user" : "project" };
    }
    if (w.parentSeedPolicy !== undefined) {
      // Seeding hands your whole conversation to a worker's model: a cloned project may not choose it (issue 23, break 8).
      if (!trusted) warnings.push(`${source} config worker.parentSeedPolicy ignored: only your user config may choose what of your conversation reaches a worker`);
      else if (w.parentSeedPolicy === "fresh" || w.parentSeedPolicy === "full") config.worker.parentSeedPolicy = w.parentSeedPolicy;
      else warnings.push(`${source} config worker.parentSeedPolicy must be "fresh" or "full"; ignored`);
    }
    if (w.agent !== undefined) {
      if (!trusted) warnings.push(`${source} config worker.agent ignored: only your user config may choose which agent sees your code`);
      else if (typeof w.agent === "string" && isWorkerAgent(w.agent)) config.worker.agent = w.agent;
      else warnings.push(`${source} config worker.agent must be one of ${WORKER_AGENTS.join(", ")}; ignored`);
    }
    const prune = num(w.pruneAfterHours, "worker.pruneAfterHours");
    // `docket prune` deletes across every project: a project may keep workers longer, never make them go sooner.
    if (prune !== undefined) {
      if (trusted || prune >= config.worker.pruneAfterHours) config.worker.pruneAfterHours = prune;
      else warnings.push(`${source} config worker.pruneAfterHours ${prune} would prune sooner than ${config.worker.pruneAfterHours}; only your user config can`);
    }
    if (w.passEnv !== undefined) {
      const list = strList(w.passEnv);
      if (!trusted) warnings.push(`${source} config worker.passEnv ignored: only your user config may pass variables to workers`);
      else if (list) config.worker.passEnv = list;
      else warnings.push(`${source} config worker.passEnv must be a list of names; ignored`);
    }
    if (w.unattended !== undefined) {
      if (!trusted) warnings.push(`${source} config worker.unattended ignored: only your user config may turn agents' permission prompts off`);
      else if (typeof w.unattended === "boolean") config.worker.unattended = w.unattended;
      else warnings.push(`${source} config worker.unattended must be true or false; ignored`);
    }
    if (w.host !== undefined) {
      if (!trusted) warnings.push(`${source} config worker.host ignored: only your user config may choose the machine workers run on`);
      else if (typeof w.host === "string" && isHostName(w.host)) config.worker.host = w.host;
      else warnings.push(`${source} config worker.host must be the name of one of your hosts (docket hosts ls); ignored`);
    }
  }
  if (raw.sandbox !== undefined) applySandbox(config, raw.sandbox, source, warnings, trusted);
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
    else warnings.push(`${source} config pi.fleetKey must be a key such as "f8" or "ctrl+shift+f" (or "" for none); ignored`);
  }
  for (const agent of ["claude", "codex"] as const) {
    const section = raw[agent];
    if (!isObj(section) || section.extraArgs === undefined) continue;
    const list = strList(section.extraArgs);
    if (!trusted) warnings.push(`${source} config ${agent}.extraArgs ignored: only your user config may change how ${agent} runs`);
    else if (list) config[agent].extraArgs = list;
    else warnings.push(`${source} config ${agent}.extraArgs must be a list of strings; ignored`);
  }
  if (isObj(raw.tmux) && typeof raw.tmux.session === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(raw.tmux.session)) {
    if (trusted) config.tmux.session = raw.tmux.session;
    else warnings.push(`${source} config tmux.session ignored: only your user config may choose the tmux session`);
  }
  if (raw.messaging !== undefined) applyMessaging(config, raw.messaging, source, warnings, trusted);
  if (raw.notify !== undefined) applyNotify(config, raw.notify, source, warnings, trusted);
  if (raw.hosts !== undefined) {
    if (trusted) config.hosts = parseHosts(raw.hosts, source, warnings);
    else {
      config.projectHosts = isObj(raw.hosts) ? Object.keys(raw.hosts) : [];
      warnings.push(`${source} config hosts ignored: a project may not add hosts; only your user config can (docket hosts add)`);
    }
  }
  if (isObj(raw.worker) && raw.worker.budgetUsd !== undefined) {
    const b = raw.worker.budgetUsd;
    if (!trusted) warnings.push(`${source} config worker.budgetUsd ignored: only your user config sets what workers may spend`);
    else if (typeof b === "number" && Number.isFinite(b) && b >= 0) config.budgetUsd = b;
    else warnings.push(`${source} config worker.budgetUsd must be a non-negative number of US dollars; ignored`);
  }
}

function applyNotify(config: DocketConfig, raw: unknown, source: string, warnings: string[], trusted: boolean): void {
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
    else warnings.push(`${source} config notify.command must be a list of strings (an argv such as ["ntfy", "publish", "mytopic"]); ignored`);
  }
  if (raw.openCommand !== undefined) {
    const list = strList(raw.openCommand);
    if (list && list.length > 0 && list[0] !== "") config.notify.openCommand = list;
    else warnings.push(`${source} config notify.openCommand must be a non-empty list of strings (an argv such as ["firefox", "--new-tab"]); ignored`);
  }
  if (raw.batchSeconds !== undefined) {
    const n = raw.batchSeconds;
    if (typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= 60) config.notify.batchSeconds = n;
    else warnings.push(`${source} config notify.batchSeconds must be a number from 0 to 60; ignored`);
  }
}

function applyMessaging(config: DocketConfig, raw: unknown, source: string, warnings: string[], trusted: boolean): void {
  if (!isObj(raw)) {
    warnings.push(`${source} config messaging must be an object; ignored`);
    return;
  }
  if (!trusted) {
    // Auto-answer widens what reaches a model (a worker's words go to your session's model): a cloned project may not turn it on.
    warnings.push(`${source} config messaging ignored: only your user config may change the consult lane`);
    return;
  }
  if (raw.autoAnswer !== undefined) {
    if (typeof raw.autoAnswer === "boolean") config.messaging.autoAnswer = raw.autoAnswer;
    else warnings.push(`${source} config messaging.autoAnswer must be true or false; ignored`);
  }
  if (raw.consultWindowSeconds !== undefined) {
    const n = raw.consultWindowSeconds;
    if (typeof n === "number" && Number.isFinite(n) && n > 0) config.messaging.consultWindowSeconds = Math.max(MIN_CONSULT_WINDOW_SECONDS, n);
    else warnings.push(`${source} config messaging.consultWindowSeconds must be a positive number; ignored`);
  }
}

const SANDBOX_RANK: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

/** The variables of the human's environment that configure Docket. */
export interface ConfigEnv {
  DOCKET_SANDBOX?: string | undefined;
}

function applySandboxMode(config: DocketConfig, mode: string, warnings: string[]): void {
  if ((SANDBOX_MODES as readonly string[]).includes(mode)) config.sandbox.mode = mode as SandboxMode;
  else warnings.push(`DOCKET_SANDBOX must be one of ${SANDBOX_MODES.join(", ")}; ignored`);
}

/** `sandbox: "<mode>"` or `sandbox: {mode, network, readOnlyPaths}`; a project may only tighten. */
function applySandbox(config: DocketConfig, raw: unknown, source: string, warnings: string[], trusted: boolean): void {
  const section = typeof raw === "string" ? { mode: raw } : raw;
  if (!isObj(section)) {
    warnings.push(`${source} config sandbox must be "auto", "required", "off" or an object; ignored`);
    return;
  }
  if (section.mode !== undefined) {
    const mode = section.mode;
    if (typeof mode !== "string" || !(SANDBOX_MODES as readonly string[]).includes(mode)) {
      warnings.push(`${source} config sandbox.mode must be one of ${SANDBOX_MODES.join(", ")}; ignored`);
    } else if (trusted || SANDBOX_RANK[mode as SandboxMode] >= SANDBOX_RANK[config.sandbox.mode]) config.sandbox.mode = mode as SandboxMode;
    else warnings.push(`${source} config sandbox "${mode}" would loosen containment; only your user config can`);
  }
  if (section.network !== undefined) {
    if (section.network !== "default" && section.network !== "none") warnings.push(`${source} config sandbox.network must be "default" or "none"; ignored`);
    else if (trusted || section.network === "none") config.sandbox.network = section.network;
    else warnings.push(`${source} config sandbox.network "default" would give workers the network; only your user config can`);
  }
  if (section.readOnlyPaths !== undefined) {
    const list = strList(section.readOnlyPaths);
    if (!trusted) warnings.push(`${source} config sandbox.readOnlyPaths ignored: only your user config may show paths to workers`);
    else if (list && list.every((p) => p.startsWith("/"))) config.sandbox.readOnlyPaths = list;
    else warnings.push(`${source} config sandbox.readOnlyPaths must be a list of absolute paths; ignored`);
  }
}

const KEY_NAME = /^(?:(?:ctrl|shift|alt|super)\+){0,3}(?:f(?:[1-9]|1[0-2])|[a-z0-9]|escape|enter|tab|space|backspace|delete|insert|home|end|pageUp|pageDown|up|down|left|right)$/;

/** A key as pi names it: optional modifiers, then a function key, a letter, a digit or a named key. */
export function isKeyName(key: string): boolean {
  return KEY_NAME.test(key);
}
