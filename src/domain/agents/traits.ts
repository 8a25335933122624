// The agents a worker's window can run, and one row per agent of the facts Docket's code branches on.
// Code outside this room and substrate/agents/ asks a trait, never an agent's name (test/architecture.test.ts counts).

/** What runs in a worker's window: pi (native), Claude Code or Codex (through `docket mcp`), or any command. */
export const WORKER_AGENTS = ["pi", "claude", "codex", "command"] as const;
export type WorkerAgent = (typeof WORKER_AGENTS)[number];

export interface AgentTraits {
  /** How a message names it to the human. */
  displayName: string;
  /** How its worker reaches Docket: pi's extension in its own process, `docket mcp` from the agent's own CLI, or none of its own. */
  reachesDocket: "extension" | "mcp" | "none";
  /** It runs the human's own shell command (`--cmd`) rather than an agent CLI. */
  runsUserCommand: boolean;
  /** How its model is chosen: Docket picks one of pi's models and a thinking level; the name is passed through to the agent's CLI; none. */
  model: "docket-picks" | "passed-through" | "none";
  /** Where its extra command-line arguments come from: pi's (config pi.extraArgs, DOCKET_PI_ARGS), its own config section, none. */
  extraArgs: "pi-args" | "agent-config" | "none";
  /** It can start from the parent's pi session (`--seed`, worker.parentSeedPolicy). */
  seedsFromParent: boolean;
  /** It can be driven by Docket's scripted model (`spawn --scripted`, the demo). */
  runsScriptedModel: boolean;
  /** Whose model API it calls (what its sandbox's egress lets through). */
  modelApi: "pi-providers" | "anthropic" | "openai" | "none";
  /** Its usage records under the worker's directory and their format; null: it keeps none (its spend is unknown). */
  spendRecords: { path: readonly string[]; format: "pi-session" | "claude-transcript" | "codex-rollout" } | null;
  /** Its pane is scanned for a line saying it stopped on an auth, model or quota error (substrate/agents/signatures.ts). */
  screenShowsBlocked: boolean;
  /** What says it is alive: its runtime's heartbeats, or only its running pane. */
  liveness: "heartbeat" | "pane";
  /** How the human's words reach it: its runtime reads the inbox; pasted at its prompt (its hook marks them read); pasted at once. */
  messages: "inbox" | "pasted-at-prompt" | "pasted-at-once";
  /** What its sandbox binds beyond the worker's own places: pi's agent dir and session dir, its private config home, nothing. */
  sandboxBinds: "pi-agent-dir" | "config-home" | "none";
  /** Where its CLI comes from: Docket's own dependency, found in node_modules or on PATH, or the shell. */
  found: "dependency" | "located" | "shell";
  /** It can run on a remote host (`--host`, worker.host). */
  runsOnHost: boolean;
  /** `docket use --worker` can start it. */
  startsFromUse: boolean;
  /** The program a machine or host must have and how to install it; null: the shell is enough. */
  program: { name: string; install: string } | null;
}

/** What Claude Code and Codex share: each is its own interactive CLI, reaching Docket through `docket mcp`. */
const MCP_CLI = {
  reachesDocket: "mcp",
  runsUserCommand: false,
  model: "passed-through",
  extraArgs: "agent-config",
  seedsFromParent: false,
  runsScriptedModel: false,
  screenShowsBlocked: true,
  liveness: "heartbeat",
  messages: "pasted-at-prompt",
  sandboxBinds: "config-home",
  found: "located",
  runsOnHost: false,
  startsFromUse: false,
} as const;

export const AGENT_TRAITS = {
  pi: {
    displayName: "pi",
    reachesDocket: "extension",
    runsUserCommand: false,
    model: "docket-picks",
    extraArgs: "pi-args",
    seedsFromParent: true,
    runsScriptedModel: true,
    modelApi: "pi-providers",
    spendRecords: { path: ["session"], format: "pi-session" },
    screenShowsBlocked: true,
    liveness: "heartbeat",
    messages: "inbox",
    sandboxBinds: "pi-agent-dir",
    found: "dependency",
    runsOnHost: true,
    startsFromUse: true,
    program: { name: "pi", install: "npm install -g @mariozechner/pi-coding-agent" },
  },
  claude: {
    ...MCP_CLI,
    displayName: "Claude Code (claude)",
    modelApi: "anthropic",
    spendRecords: { path: ["claude", "projects"], format: "claude-transcript" },
    program: { name: "claude", install: "npm install -g @anthropic-ai/claude-code" },
  },
  codex: {
    ...MCP_CLI,
    displayName: "Codex (codex)",
    modelApi: "openai",
    spendRecords: { path: ["codex", "sessions"], format: "codex-rollout" },
    program: { name: "codex", install: "npm install -g @openai/codex" },
  },
  command: {
    displayName: "a command",
    reachesDocket: "none",
    runsUserCommand: true,
    model: "none",
    extraArgs: "none",
    seedsFromParent: false,
    runsScriptedModel: false,
    modelApi: "none",
    spendRecords: null,
    screenShowsBlocked: false,
    liveness: "pane",
    messages: "pasted-at-once",
    sandboxBinds: "none",
    found: "shell",
    runsOnHost: true,
    startsFromUse: true,
    program: null,
  },
} as const satisfies Record<WorkerAgent, AgentTraits>;

type Table = typeof AGENT_TRAITS;

/** The agents that reach Docket over MCP from their own CLI (Claude Code, Codex): derived from the table. */
export type McpAgent = { [A in WorkerAgent]: Table[A]["reachesDocket"] extends "mcp" ? A : never }[WorkerAgent];
/** The agents that can start from the parent's pi session. */
export type SeedingAgent = { [A in WorkerAgent]: Table[A]["seedsFromParent"] extends true ? A : never }[WorkerAgent];
/** The agents whose usage Docket reads from their own record files. */
export type SpendAgent = { [A in WorkerAgent]: Table[A]["spendRecords"] extends null ? never : A }[WorkerAgent];

export function isWorkerAgent(value: string): value is WorkerAgent {
  return (WORKER_AGENTS as readonly string[]).includes(value);
}

/** An agent Docket launches as its own interactive CLI wired to `docket mcp`. */
export function isMcpAgent(agent: string): agent is McpAgent {
  return isWorkerAgent(agent) && AGENT_TRAITS[agent].reachesDocket === "mcp";
}

/** An agent that can start from the parent's pi session (`--seed`). */
export function canSeedFromParent(agent: WorkerAgent): agent is SeedingAgent {
  return AGENT_TRAITS[agent].seedsFromParent;
}

/** An agent whose usage records Docket reads (the others' spend is unknown). */
export function isSpendAgent(agent: string): agent is SpendAgent {
  return isWorkerAgent(agent) && AGENT_TRAITS[agent].spendRecords !== null;
}

/** The agents with a trait, in table order (`docket use --worker`'s choices, the agents a host can run). */
export function agentsWhere(has: (t: AgentTraits) => boolean): WorkerAgent[] {
  return WORKER_AGENTS.filter((a) => has(AGENT_TRAITS[a]));
}
