// Test-only pi extension: a scripted model `faux/faux-1` whose replies come from the JSON file in $PI_FAUX_SCRIPT.
// One script step per model call: {text?, toolCall?: {name, arguments, id?}, toolCalls?: [...]}. When the script
// runs out the model says so in plain text and stops (a worker then idles, which tests can observe).
// Every served call is appended to $PI_FAUX_LOG (JSONL: step, roles, last user text, tool names) when set.

import { appendFileSync, readFileSync } from "node:fs";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import {
  fauxAssistantMessage,
  fauxText,
  fauxToolCall,
  getApiProvider,
  registerFauxProvider,
} from "@mariozechner/pi-ai";

interface FauxCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

export interface FauxStep {
  text?: string;
  toolCall?: FauxCall;
  toolCalls?: FauxCall[];
}

type Message = { role?: string; content?: unknown };

function textOf(message: Message | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  if (!Array.isArray(message.content)) return "";
  return (message.content as { text?: string }[]).map((b) => b.text ?? "").join("");
}

function reply(step: FauxStep) {
  const calls = [...(step.toolCall ? [step.toolCall] : []), ...(step.toolCalls ?? [])];
  const blocks = [
    ...(step.text ? [fauxText(step.text)] : []),
    ...calls.map((c) => fauxToolCall(c.name, c.arguments as never, c.id ? { id: c.id } : {})),
  ];
  return fauxAssistantMessage(blocks, { stopReason: calls.length > 0 ? "toolUse" : "stop" });
}

export default function fauxProvider(pi: ExtensionAPI): void {
  const api = "docket-test-faux";
  const provider = registerFauxProvider({
    api,
    provider: "faux",
    models: [
      {
        id: "faux-1",
        name: "Faux (scripted)",
        reasoning: false,
        input: ["text"],
        contextWindow: 128000,
        maxTokens: 16384,
      },
    ],
  });
  const path = process.env.PI_FAUX_SCRIPT;
  const steps: FauxStep[] = path ? (JSON.parse(readFileSync(path, "utf8")) as FauxStep[]) : [];
  const log = process.env.PI_FAUX_LOG;
  // The cursor survives extension reloads (new session, fork) by living on globalThis.
  const g = globalThis as unknown as Record<string, { next: number } | undefined>;
  const cursor = (g[`docketFaux:${path}`] ??= { next: 0 });
  const responder = (context: { messages: Message[]; tools?: { name: string }[] }) => {
    const index = cursor.next++;
    const step = steps[index] ?? { text: `faux: script exhausted after ${steps.length} step(s)` };
    if (log) {
      const lastUser = [...context.messages].reverse().find((m) => m.role === "user");
      appendFileSync(
        log,
        `${JSON.stringify({ step: index, roles: context.messages.map((m) => m.role).join(","), lastUserText: textOf(lastUser), tools: (context.tools ?? []).map((t) => t.name) })}\n`,
      );
    }
    return reply(step);
  };
  // Enough responders for any test; each one reads the shared cursor when it is called.
  provider.setResponses(Array.from({ length: 200 }, () => responder as never));
  const stream = getApiProvider(api as never)!.streamSimple;
  pi.registerProvider("faux", {
    name: "Faux (scripted tests)",
    api: api as never,
    baseUrl: "http://localhost:0",
    apiKey: "faux-no-key",
    models: provider.models.map((m) => ({
      id: m.id,
      name: m.name,
      reasoning: m.reasoning,
      input: m.input,
      cost: m.cost,
      contextWindow: m.contextWindow,
      maxTokens: m.maxTokens,
    })),
    streamSimple: (model, context, options) => stream(model, context, options),
  });
}
