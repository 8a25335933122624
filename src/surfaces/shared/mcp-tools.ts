// The protocol calls as MCP tools: listed from the one wire schema, validated by it, run on the engine protocol — in the
// door, so `docket mcp` itself loads no schema library. Idempotent by the client's tool-call id, else a required `call_id`.

import type { Static, TSchema } from "typebox";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { EngineContext } from "../../engine/context.js";
import { done, fail, todos, wait } from "../../engine/protocol/protocol.js";
import { consult, note } from "../../engine/protocol/consult.js";
import {
  formatConsultReply,
  formatDoneReply,
  formatFailReply,
  formatNoteReply,
  formatTodosReply,
  formatWaitReply,
  refusalText,
} from "./worker-replies.js";
import { parseWire, workerCalls, type WorkerCall } from "./worker-wire.js";

export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
}

export interface McpToolResult {
  content: { type: "text"; text: string }[];
  isError?: boolean;
  [key: string]: unknown;
}

/** Where each known client puts the model's tool-call id in a tools/call request's `_meta`. */
const CALL_ID_META: Readonly<Record<string, string>> = {
  "claude-code": "claudecode/toolUseId",
  "codex-mcp-client": "callId",
};

export const CALL_ID_ARGUMENT = "call_id";

const calls = workerCalls("argument");

/** The tools as listed to a client; a client that sends no tool-call id must give `call_id` on every call. */
export function listTools(clientName: string | undefined): McpTool[] {
  const needsCallId = clientName === undefined || !(clientName in CALL_ID_META);
  return Object.values(calls).map((call: WorkerCall) => {
    const schema = JSON.parse(JSON.stringify(call.parameters)) as McpTool["inputSchema"] & {
      properties: Record<string, unknown>;
      required?: string[];
    };
    if (needsCallId) {
      schema.properties[CALL_ID_ARGUMENT] = {
        type: "string",
        description: "a unique id for this call; repeating it returns the first result instead of acting twice",
      };
      schema.required = [...(schema.required ?? []), CALL_ID_ARGUMENT];
    }
    return { name: call.name, description: call.description, inputSchema: schema };
  });
}

/** The tool-call id of a request: the client's own (from `_meta`), else the `call_id` argument. */
export function callIdOf(meta: Record<string, unknown> | undefined, args: Record<string, unknown>): string | undefined {
  for (const key of Object.values(CALL_ID_META)) {
    const id = meta?.[key];
    if (typeof id === "string" && id !== "") return id;
  }
  const given = args[CALL_ID_ARGUMENT];
  return typeof given === "string" && given !== "" ? given : undefined;
}

const text = (t: string, isError = false): McpToolResult => ({
  content: [{ type: "text", text: t }],
  ...(isError ? { isError: true } : {}),
});

function parsed<S extends TSchema>(call: WorkerCall<S>, args: Record<string, unknown>): Static<S> {
  const { [CALL_ID_ARGUMENT]: _callId, ...rest } = args;
  return parseWire(call.parameters, rest, call.name);
}

/** Runs one tools/call; a refusal or invalid input is an MCP tool error carrying the one-line message. */
export function callTool(
  ctx: () => EngineContext,
  who: WorkerIdentity,
  request: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
): McpToolResult {
  const args = request.arguments ?? {};
  try {
    const callId = callIdOf(request._meta, args);
    if (callId === undefined)
      return text(
        `${request.name} needs ${CALL_ID_ARGUMENT}: give a unique id for this call (repeat it to retry the same call)`,
        true,
      );
    switch (request.name) {
      case calls.done.name: {
        const { body, ...rest } = parsed(calls.done, args);
        return text(formatDoneReply(done(ctx(), who, { callId, body, ...rest }), body, "argument"));
      }
      case calls.wait.name:
        return text(formatWaitReply(wait(ctx(), who, { ...parsed(calls.wait, args), callId })));
      case calls.todos.name:
        return text(formatTodosReply(todos(ctx(), who, parsed(calls.todos, args).items, { callId })));
      case calls.fail.name:
        return text(formatFailReply(fail(ctx(), who, { reason: parsed(calls.fail, args).reason, callId })));
      case calls.consult.name:
        return text(formatConsultReply(consult(ctx(), who, { ...parsed(calls.consult, args), callId })));
      case calls.note.name:
        return text(formatNoteReply(note(ctx(), who, { ...parsed(calls.note, args), callId })));
      default:
        return text(
          `no tool ${request.name}; Docket's tools are ${Object.values(calls)
            .map((c) => c.name)
            .join(", ")}`,
          true,
        );
    }
  } catch (error) {
    return text(refusalText(error), true);
  }
}
