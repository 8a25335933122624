// A scripted model for demos and tests: pi extension registering provider `docket-demo`, model `scripted`,
// whose replies are read from the JSON file named by $DOCKET_SCRIPTED_MODEL (one step per model call).
//
// A step is {text?, toolCall?: {name, arguments, id?}, toolCalls?: [...], delayMs?, usage?: {input, output, cacheRead, cacheWrite},
// error?}: with error, the call fails as a provider's would (pi shows `Error: <error>`); with usage, the call reports exactly those tokens and their cost at SCRIPTED_PRICES (as a priced provider would). When the script runs out the model
// answers with a short text and stops, so a worker idles instead of erroring. Each served step is appended to
// $DOCKET_SCRIPTED_MODEL_LOG (JSONL) when set. Never loaded unless named with `pi -e`.

import { appendFileSync, readFileSync } from "node:fs";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { Api, AssistantMessageEventStream, Model } from "@mariozechner/pi-ai";
import {
  calculateCost,
  fauxAssistantMessage,
  fauxText,
  fauxToolCall,
  getApiProvider,
  registerFauxProvider,
} from "@mariozechner/pi-ai";

interface ScriptCall {
  name: string;
  arguments: Record<string, unknown>;
  id?: string;
}

interface ScriptStep {
  text?: string;
  toolCall?: ScriptCall;
  toolCalls?: ScriptCall[];
  /** Answer only after this long (a slow model), or as soon as the request is aborted. */
  delayMs?: number;
  /** The tokens this call reports (otherwise the faux provider's own estimate, at no cost). */
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** The call fails with this provider error instead (e.g. `401 invalid x-api-key`). */
  error?: string;
}

/** USD per million tokens the scripted model charges when a step names its usage (Claude Sonnet's list prices). */
export const SCRIPTED_PRICES = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const USAGE_ID = "docket-usage:";

const API = "docket-scripted";

function lastUserText(messages: { role: string; content: unknown }[]): string {
  const user = [...messages].reverse().find((m) => m.role === "user");
  if (!user) return "";
  if (typeof user.content === "string") return user.content;
  return Array.isArray(user.content) ? user.content.map((b: { text?: string }) => b.text ?? "").join("") : "";
}

export default function scriptedModel(pi: ExtensionAPI): void {
  const path = process.env.DOCKET_SCRIPTED_MODEL;
  const steps: ScriptStep[] = path ? (JSON.parse(readFileSync(path, "utf8")) as ScriptStep[]) : [];
  const log = process.env.DOCKET_SCRIPTED_MODEL_LOG;
  // The cursor survives extension reloads (/new, /reload re-run factories) so a script never restarts.
  const g = globalThis as Record<string, unknown>;
  const key = `__docketScriptCursor:${path ?? ""}`;
  const cursor = (g[key] ??= { next: 0 }) as { next: number };

  const provider = registerFauxProvider({
    api: API,
    provider: "docket-demo",
    models: [
      {
        id: "scripted",
        name: "Docket scripted model",
        reasoning: false,
        input: ["text"],
        contextWindow: 128_000,
        maxTokens: 16_384,
      },
    ],
  });
  const serve = async (context: { messages: { role: string; content: unknown }[] }, signal?: AbortSignal) => {
    const index = cursor.next++;
    const step = steps[index];
    if (log)
      appendFileSync(
        log,
        `${JSON.stringify({ step: index, exhausted: step === undefined, lastUser: lastUserText(context.messages) })}\n`,
      );
    if (step?.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, step.delayMs);
        const abort = () => {
          clearTimeout(timer);
          resolve();
        };
        signal?.addEventListener("abort", abort, { once: true });
      });
    }
    if (!step)
      return fauxAssistantMessage([fauxText("(the scripted model has nothing more to say)")], { stopReason: "stop" });
    if (step.error !== undefined) return fauxAssistantMessage([], { stopReason: "error", errorMessage: step.error });
    const calls = [...(step.toolCall ? [step.toolCall] : []), ...(step.toolCalls ?? [])];
    const blocks = [
      ...(step.text ? [fauxText(step.text)] : []),
      ...calls.map((c) => fauxToolCall(c.name, c.arguments as never, c.id ? { id: c.id } : {})),
    ];
    // The faux provider replaces usage with its estimate: the step's usage rides in the response id to the stream below.
    const responseId = step.usage ? `${USAGE_ID}${JSON.stringify(step.usage)}` : undefined;
    return fauxAssistantMessage(blocks, {
      stopReason: calls.length > 0 ? "toolUse" : "stop",
      ...(responseId ? { responseId } : {}),
    });
  };
  // Enough factories for the script plus a few over-calls; each one reads the shared cursor.
  provider.setResponses(
    Array.from(
      { length: Math.max(0, steps.length - cursor.next) + 8 },
      () => (context, options) => serve(context as never, (options as { signal?: AbortSignal } | undefined)?.signal),
    ),
  );

  const stream = getApiProvider(API as never)!.streamSimple;
  pi.registerProvider("docket-demo", {
    name: "Docket scripted model",
    api: API as never,
    baseUrl: "http://localhost:0",
    apiKey: "docket-demo-no-key",
    models: provider.models.map((m) => ({
      id: m.id,
      name: m.name,
      reasoning: m.reasoning,
      input: m.input,
      cost: SCRIPTED_PRICES,
      contextWindow: m.contextWindow,
      maxTokens: m.maxTokens,
    })),
    streamSimple: (model, context, options) => withScriptedUsage(stream(model, context, options), model),
  });
}

/** Sets the scripted usage (and its cost) on the finished message, the way a priced provider reports it. */
function withScriptedUsage(s: AssistantMessageEventStream, model: Model<Api>): AssistantMessageEventStream {
  const push = s.push.bind(s);
  s.push = (event) => {
    if (event.type === "done" && event.message.responseId?.startsWith(USAGE_ID)) {
      const u = JSON.parse(event.message.responseId.slice(USAGE_ID.length)) as NonNullable<ScriptStep["usage"]>;
      const usage = {
        input: u.input,
        output: u.output,
        cacheRead: u.cacheRead ?? 0,
        cacheWrite: u.cacheWrite ?? 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      };
      usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
      calculateCost({ ...model, cost: SCRIPTED_PRICES }, usage);
      event.message.usage = usage;
    }
    push(event);
  };
  return s;
}
