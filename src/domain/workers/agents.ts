// The agents a worker's window can run, and which of them Docket wires through `docket mcp`.
// Its own module so the spawn resolver and the spawn summary's formatter both read it without importing each other.

/** What runs in a worker's window: pi (native), Claude Code or Codex (through `docket mcp`), or any command. */
export const WORKER_AGENTS = ["pi", "claude", "codex", "command"] as const;
export type WorkerAgent = (typeof WORKER_AGENTS)[number];
export type McpAgent = "claude" | "codex";

export function isWorkerAgent(value: string): value is WorkerAgent {
  return (WORKER_AGENTS as readonly string[]).includes(value);
}

/** An agent Docket launches as its own interactive CLI wired to `docket mcp`. */
export function isMcpAgent(agent: string): agent is McpAgent {
  return agent === "claude" || agent === "codex";
}
