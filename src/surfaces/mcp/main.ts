// `docket mcp`: the worker protocol as an MCP server on stdio, started by the worker's agent (Claude Code, Codex …).
// It runs for as long as the agent does, so it also carries the worker's heartbeat and its inbox; every call goes to the door.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { isDocketError } from "../../domain/errors.js";
import { doorOf, type Door } from "../shared/door-client.js";
import { VERSION } from "../shared/version.js";
import { callTool, listTools } from "./tools.js";
import { startWorkerLoop } from "./worker-loop.js";

const USAGE = "usage: docket mcp   (an MCP server on stdio; the agent Docket launched starts it with the worker's identity in its environment)";

/** Serves until the client closes stdio; returns the process exit code (2 when there is no worker identity). */
export async function main(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (argv.length > 0) {
    process.stderr.write(`docket mcp: unexpected argument ${JSON.stringify(argv[0])}\n${USAGE}\n`);
    return 2;
  }
  let door: Door;
  try {
    door = doorOf(process.env);
  } catch (error) {
    if (!isDocketError(error)) throw error;
    process.stderr.write(`docket mcp: ${error.message}${error.hint ? ` (${error.hint})` : ""}\n`);
    return 2;
  }
  const server = new Server({ name: "docket", version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools(server.getClientVersion()?.name) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(door, request.params));

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  const loop = startWorkerLoop(door);
  await server.connect(transport);
  // The agent closing our stdin is the end of this worker process's life as far as we can see.
  process.stdin.on("end", () => void server.close());
  await closed;
  loop.stop();
  return 0;
}
