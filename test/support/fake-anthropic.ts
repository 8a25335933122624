// The Anthropic Messages wire for the scripted model server: what Claude Code talks to with ANTHROPIC_BASE_URL.
// Main-loop requests carry the agent's tools; anything else (titles, topic checks) is a side request.

import type { ServerResponse } from "node:http";
import {
  json,
  sse,
  startFakeModelServer,
  type FakeModelServer,
  type ModelWire,
  type RecordedRequest,
  type ScriptEntry,
  type ScriptStep,
} from "./fake-model-server.js";

type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

function blocksOf(step: ScriptStep, serial: number): Block[] {
  const blocks: Block[] = [];
  if (step.text !== undefined) blocks.push({ type: "text", text: step.text });
  (step.tools ?? []).forEach((t, i) =>
    blocks.push({ type: "tool_use", id: t.id ?? `toolu_${serial}_${i}`, name: t.name, input: t.input }),
  );
  return blocks;
}

export const anthropicWire: ModelWire = {
  answerOther(request, res) {
    if (request.method !== "POST" || !request.path.startsWith("/v1/messages")) {
      json(res, 404, {
        type: "error",
        error: { type: "not_found_error", message: `no route ${request.method} ${request.path}` },
      });
      return true;
    }
    if (request.path.startsWith("/v1/messages/count_tokens")) {
      json(res, 200, { input_tokens: 100 });
      return true;
    }
    return false;
  },
  isMain(request) {
    return Array.isArray(request.body?.tools) && request.body.tools.length > 0;
  },
  stream(res: ServerResponse, step, request: RecordedRequest, serial) {
    const id = `msg_fake_${serial}`;
    const model = typeof request.body?.model === "string" ? request.body.model : "claude-fake";
    const blocks = blocksOf(step, serial);
    const stopReason = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
    const u = step.usage ?? { input: 10, output: 5 };
    const usage = {
      input_tokens: u.input,
      output_tokens: u.output,
      cache_creation_input_tokens: u.cacheWrite ?? 0,
      cache_read_input_tokens: u.cacheRead ?? 0,
    };
    if (request.body?.stream !== true) {
      json(res, 200, {
        id,
        type: "message",
        role: "assistant",
        model,
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    sse(res, "message_start", {
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    blocks.forEach((block, index) => {
      if (block.type === "text") {
        sse(res, "content_block_start", { index, content_block: { type: "text", text: "" } });
        sse(res, "content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
      } else {
        sse(res, "content_block_start", {
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        });
        sse(res, "content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
        });
      }
      sse(res, "content_block_stop", { index });
    });
    // As the API does: message_start carries the input side, message_delta the cumulative output count.
    sse(res, "message_delta", {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    });
    sse(res, "message_stop", {});
    res.end();
  },
};

export function startFakeAnthropic(script: ScriptEntry[]): Promise<FakeModelServer> {
  return startFakeModelServer(anthropicWire, script);
}

/** Every text a request's messages carry (user text, tool results), for asserting what the agent sent. */
export function anthropicTexts(request: RecordedRequest): string[] {
  const out: string[] = [];
  const visit = (content: unknown): void => {
    if (typeof content === "string") out.push(content);
    else if (Array.isArray(content)) for (const c of content) visit(c);
    else if (content && typeof content === "object") {
      const c = content as { text?: unknown; content?: unknown };
      if (typeof c.text === "string") out.push(c.text);
      if (c.content !== undefined) visit(c.content);
    }
  };
  for (const m of request.body?.messages ?? []) visit(m.content);
  return out;
}

/** The tool_result blocks of a request's last user message, by tool_use id. */
export function anthropicToolResults(request: RecordedRequest): { id: string; isError: boolean; text: string }[] {
  const messages: { role: string; content: unknown }[] = request.body?.messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === "user");
  if (!last || !Array.isArray(last.content)) return [];
  return (last.content as { type?: string; tool_use_id?: string; is_error?: boolean; content?: unknown }[])
    .filter((b) => b.type === "tool_result")
    .map((b) => ({
      id: String(b.tool_use_id),
      isError: b.is_error === true,
      text: anthropicTexts({ ...request, body: { messages: [{ content: b.content }] } }).join("\n"),
    }));
}

/** A Messages API that refuses every call as the real one refuses a bad key: 401 with an authentication_error. */
export function startRefusingAnthropic(): Promise<FakeModelServer> {
  const refuse = (res: ServerResponse) =>
    json(res, 401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } });
  return startFakeModelServer(
    {
      answerOther(request, res) {
        if (request.method === "POST" && request.path.startsWith("/v1/messages")) refuse(res);
        else anthropicWire.answerOther(request, res);
        return true;
      },
      isMain: () => false,
      stream: (res) => refuse(res),
    },
    [],
  );
}
