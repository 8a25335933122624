// The OpenAI Responses wire for the scripted model server: what Codex talks to through a custom provider.
// Codex's own side threads (the task title) are side requests; every other request with tools is the main loop.

import type { ServerResponse } from "node:http";
import {
  json,
  sse,
  startFakeModelServer,
  type FakeModelServer,
  type ModelWire,
  type RecordedRequest,
  type ScriptEntry,
} from "./fake-model-server.js";

function threadSource(request: RecordedRequest): string | undefined {
  const raw = request.headers["x-codex-turn-metadata"];
  if (typeof raw !== "string") return undefined;
  try {
    const meta = JSON.parse(raw) as { thread_source?: unknown };
    return typeof meta.thread_source === "string" ? meta.thread_source : undefined;
  } catch {
    return undefined; // not Codex's metadata: judge by the body alone
  }
}

export const responsesWire: ModelWire = {
  answerOther(request, res) {
    if (request.method === "GET" && /\/models(\?|$)/.test(request.path)) {
      json(res, 200, { object: "list", data: [], models: [] });
      return true;
    }
    if (request.method !== "POST" || !/\/responses(\?|$)/.test(request.path)) {
      json(res, 404, { error: { message: `no route ${request.method} ${request.path}` } });
      return true;
    }
    return false;
  },
  isMain(request) {
    if (threadSource(request) === "thread_title") return false;
    return Array.isArray(request.body?.tools) && request.body.tools.length > 0;
  },
  stream(res: ServerResponse, step, _request, serial) {
    const id = `resp_fake_${serial}`;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    sse(res, "response.created", { response: { id, status: "in_progress" } });
    let index = 0;
    if (step.text !== undefined) {
      const itemId = `msg_fake_${serial}`;
      const item = {
        type: "message",
        id: itemId,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: step.text, annotations: [] }],
      };
      sse(res, "response.output_item.added", {
        output_index: index,
        item: { ...item, status: "in_progress", content: [] },
      });
      sse(res, "response.output_text.delta", {
        output_index: index,
        item_id: itemId,
        content_index: 0,
        delta: step.text,
      });
      sse(res, "response.output_item.done", { output_index: index, item });
      index++;
    }
    for (const [i, call] of (step.tools ?? []).entries()) {
      const callId = call.id ?? `call_${serial}_${i}`;
      const item = {
        type: "function_call",
        id: `fc_${serial}_${i}`,
        call_id: callId,
        name: call.name,
        ...(call.namespace ? { namespace: call.namespace } : {}),
        arguments: JSON.stringify(call.input),
        status: "completed",
      };
      sse(res, "response.output_item.added", {
        output_index: index,
        item: { ...item, arguments: "", status: "in_progress" },
      });
      sse(res, "response.output_item.done", { output_index: index, item });
      index++;
    }
    // The Responses API counts cached tokens inside input_tokens (and has no cache writes).
    const u = step.usage ?? { input: 10, output: 5 };
    const input = u.input + (u.cacheRead ?? 0);
    const usage = {
      input_tokens: input,
      input_tokens_details: { cached_tokens: u.cacheRead ?? 0 },
      output_tokens: u.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + u.output,
    };
    sse(res, "response.completed", { response: { id, status: "completed", usage } });
    res.end();
  },
};

export function startFakeOpenAI(script: ScriptEntry[]): Promise<FakeModelServer> {
  return startFakeModelServer(responsesWire, script);
}

/** Every text of a request's input items (messages and function-call outputs), for asserting what the agent sent. */
export function responsesTexts(request: RecordedRequest): string[] {
  const out: string[] = [];
  for (const item of request.body?.input ?? []) {
    if (typeof item?.output === "string") out.push(item.output);
    if (typeof item?.content === "string") out.push(item.content);
    if (Array.isArray(item?.content)) for (const c of item.content) if (typeof c?.text === "string") out.push(c.text);
  }
  return out;
}

/** The function-call outputs a request carries, by call id. */
export function responsesToolOutputs(request: RecordedRequest): { id: string; text: string }[] {
  return (request.body?.input ?? [])
    .filter((i: { type?: string }) => i?.type === "function_call_output" || i?.type === "custom_tool_call_output")
    .map((i: { call_id?: string; output?: unknown }) => ({
      id: String(i.call_id),
      text: typeof i.output === "string" ? i.output : JSON.stringify(i.output),
    }));
}
