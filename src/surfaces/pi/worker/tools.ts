// The worker role's pi tools — docket_todos, docket_wait, docket_done, docket_fail, docket_consult, docket_note —
// run by the worker's door.
// docket_done's body is the full text of the assistant message holding that exact tool call
// (docs/decisions/immutable-deliverables.md, docs/decisions/worker-protocol.md).

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { DoorCall } from "../../../domain/door.js";
import type { DoneResult, TodosResult, WaitResult } from "../../../engine/protocol/protocol.js";
import type { ConsultResult, NoteResult } from "../../../engine/protocol/consult.js";
import { callDoor, type Door } from "../../shared/door-client.js";
import { workerCalls } from "../../shared/worker-wire.js";
import {
  formatConsultReply,
  formatDoneReply,
  formatFailReply,
  formatNoteReply,
  formatTodosReply,
  formatWaitReply,
  refusalText,
} from "../../shared/worker-replies.js";

const calls = workerCalls("message");

/** An assistant message's text blocks joined by blank lines, exactly as produced, and its docket_done call ids. */
function assistantText(message: unknown): { text: string; callIds: string[] } | undefined {
  const m = message as { role?: string; content?: unknown };
  if (m?.role !== "assistant" || !Array.isArray(m.content)) return undefined;
  const texts: string[] = [];
  const callIds: string[] = [];
  for (const block of m.content as { type?: string; text?: string; id?: string; name?: string }[]) {
    if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
    if (block?.type === "toolCall" && block.name === "docket_done" && typeof block.id === "string") {
      callIds.push(block.id);
    }
  }
  return { text: texts.join("\n\n"), callIds };
}

/** Runs door calls in the order they were made (the worker role's queue); by default, at once. */
export type InOrder = <T>(fn: () => Promise<T>) => Promise<T>;

type RunCall = <T>(call: DoorCall, args: object) => Promise<T>;

export function registerWorkerTools(pi: ExtensionAPI, door: Door, inOrder: InOrder = (fn) => fn()): void {
  const run: RunCall = (call, args) => inOrder(() => runAt(door, call, args));
  registerDoneTool(pi, run, trackDoneBodies(pi));
  registerReplyTools(pi, run);
}

type BodyFor = (toolCallId: string, ctx: ExtensionContext) => string | undefined;

/** Keeps the text of each message that holds a docket_done call; answers the body for a call id. */
function trackDoneBodies(pi: ExtensionAPI): BodyFor {
  // Only messages holding a docket_done call are kept (one entry per call), so the map stays small.
  const bodies = new Map<string, string>();
  pi.on("message_end", (event) => {
    const found = assistantText(event.message);
    if (!found) return;
    for (const id of found.callIds) bodies.set(id, found.text);
  });
  // The body for a call: from message_end, else from the session branch (the same assistant message).
  return (toolCallId, ctx) => {
    const known = bodies.get(toolCallId);
    if (known !== undefined) return known;
    for (const entry of [...ctx.sessionManager.getBranch()].reverse()) {
      const found = entry.type === "message" ? assistantText((entry as { message?: unknown }).message) : undefined;
      if (found?.callIds.includes(toolCallId)) return found.text;
    }
    return undefined;
  };
}

function registerDoneTool(pi: ExtensionAPI, run: RunCall, bodyFor: BodyFor): void {
  pi.registerTool({
    name: calls.done.name,
    label: calls.done.label,
    description: calls.done.description,
    parameters: calls.done.parameters,
    async execute(toolCallId, params, _signal, _onUpdate, ctx) {
      const body = bodyFor(toolCallId, ctx);
      if (body === undefined) {
        throw new Error(
          "docket_done could not find the message that contains this call; " +
            "write the deliverable text and call docket_done again in the same message",
        );
      }
      const result = await run<DoneResult>("done", { callId: toolCallId, body, ...params });
      const text = formatDoneReply(result, body, "message");
      return { content: [{ type: "text", text }], details: result };
    },
  });
}

/** docket_wait, docket_todos, docket_consult, docket_note and docket_fail: one door call each, one reply line. */
function registerReplyTools(pi: ExtensionAPI, run: RunCall): void {
  pi.registerTool({
    name: calls.wait.name,
    label: calls.wait.label,
    description: calls.wait.description,
    parameters: calls.wait.parameters,
    async execute(toolCallId, params) {
      const result = await run<WaitResult>("wait", { ...params, callId: toolCallId });
      return { content: [{ type: "text", text: formatWaitReply(result) }], details: result, terminate: true };
    },
  });

  pi.registerTool({
    name: calls.todos.name,
    label: calls.todos.label,
    description: calls.todos.description,
    parameters: calls.todos.parameters,
    async execute(toolCallId, params) {
      const result = await run<TodosResult>("todos", { items: params.items, callId: toolCallId });
      return { content: [{ type: "text", text: formatTodosReply(result) }], details: result };
    },
  });

  pi.registerTool({
    name: calls.consult.name,
    label: calls.consult.label,
    description: calls.consult.description,
    parameters: calls.consult.parameters,
    async execute(toolCallId, params) {
      const result = await run<ConsultResult>("consult", { ...params, callId: toolCallId });
      return { content: [{ type: "text", text: formatConsultReply(result) }], details: result, terminate: true };
    },
  });

  pi.registerTool({
    name: calls.note.name,
    label: calls.note.label,
    description: calls.note.description,
    parameters: calls.note.parameters,
    async execute(toolCallId, params) {
      const result = await run<NoteResult>("note", { ...params, callId: toolCallId });
      return { content: [{ type: "text", text: formatNoteReply(result) }], details: result };
    },
  });

  pi.registerTool({
    name: calls.fail.name,
    label: calls.fail.label,
    description: calls.fail.description,
    parameters: calls.fail.parameters,
    async execute(toolCallId, params) {
      const result = await run<{ reason: string }>("fail", { reason: params.reason, callId: toolCallId });
      return { content: [{ type: "text", text: formatFailReply(result) }], details: result, terminate: true };
    },
  });
}

/** Docket refusals reach the model as one line with the fix; pi marks the tool result as an error. */
async function runAt<T>(door: Door, call: DoorCall, args: object): Promise<T> {
  try {
    return await callDoor<T>(door, call, args);
  } catch (error) {
    throw new Error(refusalText(error));
  }
}
