// `docket mcp`: the worker protocol as an MCP server on stdio, started by the worker's agent (Claude Code, Codex …).
// A thin relay: JSON-RPC lines in, each tools/list and tools/call answered by the worker's door (which holds the one wire
// schema), so this process loads no schema library and no SDK. It also carries the worker's heartbeat and inbox.

import { createInterface } from "node:readline";
import { isDocketError } from "../../domain/errors.js";
import { callDoor, doorOf, type Door } from "../shared/door-client.js";
import { VERSION } from "../shared/version.js";
import { startWorkerLoop } from "./worker-loop.js";

const USAGE =
  "usage: docket mcp   (an MCP server on stdio; the agent Docket launched starts it with the worker's identity in its environment)";
/** Protocol revisions this server speaks (the tools capability is the same in each); the newest is offered otherwise. */
const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

interface Message {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
}

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
  let client: string | undefined;
  const send = (message: object) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

  async function answer(m: Message): Promise<object> {
    switch (m.method) {
      case "initialize": {
        const info = m.params?.clientInfo as { name?: unknown } | undefined;
        client = typeof info?.name === "string" ? info.name : undefined;
        const asked = m.params?.protocolVersion;
        const protocolVersion =
          typeof asked === "string" && PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0];
        return {
          result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "docket", version: VERSION } },
        };
      }
      case "ping":
        return { result: {} };
      case "tools/list":
        return { result: await callDoor(door, "mcp-list", { client }) };
      case "tools/call":
        return { result: await callDoor(door, "mcp-call", { request: m.params ?? {} }) };
      default:
        return { error: { code: -32601, message: `Method not found: ${String(m.method)}` } };
    }
  }

  const loop = startWorkerLoop(door);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let pending = Promise.resolve();
  for await (const line of lines) {
    if (line.trim() === "") continue;
    let m: Message;
    try {
      m = JSON.parse(line) as Message;
    } catch {
      send({ id: null, error: { code: -32700, message: "Parse error" } });
      continue;
    }
    if (m.id === undefined || m.id === null || typeof m.method !== "string") continue; // a notification or a response: nothing to answer
    const id = m.id;
    // Calls are answered in the order they came, each as soon as it is done.
    pending = pending.then(async () => {
      try {
        send({ id, ...(await answer(m)) });
      } catch (error) {
        // The door could not be reached: the agent reads the named error as the tool's result.
        const text = isDocketError(error) ? `${error.message}${error.hint ? ` (${error.hint})` : ""}` : String(error);
        send({
          id,
          ...(m.method === "tools/call"
            ? { result: { content: [{ type: "text", text }], isError: true } }
            : { error: { code: -32603, message: text } }),
        });
      }
    });
  }
  await pending;
  loop.stop();
  return 0;
}
