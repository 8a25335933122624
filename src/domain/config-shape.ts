// The shape of Docket's settings and their defaults: what each key means and who may set it.
// Validation and the user/project merge live in config.ts and config-sections.ts; this file only describes.

import type { WorkerAgent } from "./agents/traits.js";
import type { HostEntry } from "./hosts.js";
import { DEFAULT_DOOR_LIMITS, type DoorLimits } from "./door-limits.js";
import { DEFAULT_NETWORK_MODE, type NetworkMode } from "./network-policy.js";

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
    /** Which file chose defaultKind / implementKind: a project's choice may not widen authority (checked with
     * kinds). */
    kindChoicesFrom?: { defaultKind?: "user" | "project"; implementKind?: "user" | "project" };
    parentSeedPolicy?: "fresh" | "full";
    /** Names of variables copied from the caller's environment into every worker (user config only). */
    passEnv: string[];
    pruneAfterHours: number;
    /** Minutes without a sign of progress (heartbeat, call, tool, pane change) before a working worker shows `stuck`;
     * fractions allowed; 0 never. */
    stuckMinutes: number;
    /** Claude Code and Codex run with their own permission prompts off; allowed only for contained workers
     * (user config only). */
    unattended: boolean;
    /** The host of the user's config new workers run on unless `spawn --local` (user config only: it decides where
     * code goes). */
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
  /** What one worker may take of the door (src/domain/door-limits.ts); a project may only lower a limit. */
  door: DoorLimits;
}

export type SandboxMode = "auto" | "required" | "off";
export const SANDBOX_MODES: readonly SandboxMode[] = ["auto", "required", "off"];
export const DEFAULT_SANDBOX_MODE: SandboxMode = "auto";

export interface SandboxConfig {
  /** `auto`: contain wherever bubblewrap works; `required`: refuse to spawn otherwise; `off`: never contain. */
  mode: SandboxMode;
  /** `allow` (default): only the hosts the agent needs plus `allow`, through Docket's egress proxy; `none`: no network
   * at all; `open`: the machine's network, as uncontained (docs/containment.md). A project may only narrow it. */
  network: NetworkMode;
  /** `host[:port]` patterns (`*.example.com` for subdomains) a contained worker may reach besides its model API
   * (user config only). */
  allow: string[];
  /** Host paths a contained worker may read although they sit under /tmp or a hidden place (user config only). */
  readOnlyPaths: string[];
}

/** The shortest consult window honoured: anything lower is raised to this. */
export const MIN_CONSULT_WINDOW_SECONDS = 5;

export const DEFAULT_CONFIG: DocketConfig = {
  maxActive: 8,
  obligationDueMinutes: 60,
  implementKind: "implementer",
  worker: { agent: "pi", passEnv: [], pruneAfterHours: 24, stuckMinutes: 10, unattended: false },
  // "off" until the worker door lands: a contained worker still opens the ledger before it. Then: "auto".
  sandbox: { mode: DEFAULT_SANDBOX_MODE, network: DEFAULT_NETWORK_MODE, allow: [], readOnlyPaths: [] },
  pi: { extraArgs: [], fleetKey: "f8" },
  claude: { extraArgs: [] },
  codex: { extraArgs: [] },
  tmux: { session: "docket-workers" },
  messaging: { autoAnswer: false, consultWindowSeconds: 90 },
  notify: { desktop: false, web: true, terminal: false, command: [], batchSeconds: 3, openCommand: ["xdg-open"] },
  budgetUsd: 0,
  hosts: {},
  projectHosts: [],
  door: DEFAULT_DOOR_LIMITS,
};

const NAMED_KEYS = "escape|enter|tab|space|backspace|delete|insert|home|end|pageUp|pageDown|up|down|left|right";
const KEY_NAME = new RegExp(`^(?:(?:ctrl|shift|alt|super)\\+){0,3}(?:f(?:[1-9]|1[0-2])|[a-z0-9]|${NAMED_KEYS})$`);

/** A key as pi names it: optional modifiers, then a function key, a letter, a digit or a named key. */
export function isKeyName(key: string): boolean {
  return KEY_NAME.test(key);
}
