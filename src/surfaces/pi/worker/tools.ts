// The worker role's pi tools — docket_todos, docket_wait, docket_done, docket_fail, docket_consult, docket_note — over the engine protocol.
// docket_done's body is the full text of the assistant message holding that exact tool call (ADR-0003, DESIGN §5).

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { StringEnum } from "@mariozechner/pi-ai";
import { Type } from "typebox";
import { DONE_OUTCOMES } from "../../../domain/deliverables/deliverable.js";
import { isDocketError } from "../../../domain/errors.js";
import { EVIDENCE_KINDS, REPORT_OUTCOMES } from "../../../domain/work/report.js";
import { TODO_STATES } from "../../../domain/workers/todos.js";
import type { WorkerIdentity } from "../../../domain/workers/identity.js";
import type { EngineContext } from "../../../engine/context.js";
import { done, fail, todos, wait } from "../../../engine/protocol/protocol.js";
import { consult, note } from "../../../engine/protocol/consult.js";
import { CONSULT_PURPOSE } from "../../../domain/talk/consult.js";

export interface WorkerToolsRuntime {
  /** The engine, or a function that opens it on first use. */
  engine: EngineContext | (() => EngineContext);
  identity: WorkerIdentity;
}

const EvidenceSchema = Type.Object({
  kind: StringEnum(EVIDENCE_KINDS, { description: "commit (sha, where pushed) | test (command and result) | artifact (built/installed/served) | runtime (the running thing was checked) | note" }),
  text: Type.String({ description: "what exactly; a passing test is not a restarted service" }),
});

const DoneParams = Type.Object({
  outcome: StringEnum(DONE_OUTCOMES, { description: "completed (work done) | findings (what you found) | proposal (a plan or design for approval)" }),
  summary: Type.String({ description: "one line for the human" }),
  evidence: Type.Optional(Type.Array(EvidenceSchema, { description: "typed evidence, stored as given" })),
  recommendations: Type.Optional(Type.Array(Type.String(), { description: "what the human should do next" })),
  items: Type.Optional(
    Type.Array(
      Type.Object({
        item: Type.String({ description: "a dispatched item id: t<N> or r<N>" }),
        outcome: StringEnum(REPORT_OUTCOMES, { description: "done | released | abandoned | blocked" }),
        body: Type.String({ description: "what happened to this item (non-empty)" }),
        evidence: Type.Optional(Type.Array(EvidenceSchema)),
        forHuman: Type.Optional(Type.Array(Type.String())),
        answers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "reply id → your answer" })),
      }),
      { description: "one report per dispatched item" },
    ),
  ),
});

const WaitParams = Type.Object({
  question: Type.String({ description: "the one question for the human" }),
  options: Type.Optional(Type.Array(Type.String(), { description: "2–4 possible answers" })),
  recommend: Type.Optional(Type.String({ description: "the answer you recommend" })),
  risk: Type.Optional(Type.String({ description: "what goes wrong with the wrong answer" })),
  blocked: Type.Optional(Type.Array(Type.Object({ item: Type.String(), body: Type.String() }), { description: "items you cannot progress until answered" })),
});

const TodosParams = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Optional(Type.String()),
      text: Type.String(),
      state: Type.Optional(StringEnum(TODO_STATES)),
    }),
    { description: "the whole board (at most 12); replaces the previous one" },
  ),
});

const FailParams = Type.Object({ reason: Type.String({ description: "what stopped you" }) });

const ConsultParams = Type.Object({
  question: Type.String({ description: "the one question of fact for the parent agent" }),
  context: Type.Optional(Type.String({ description: "what you already know and why you ask" })),
  options: Type.Optional(Type.Array(Type.String(), { description: "possible answers, if you have them" })),
  recommend: Type.Optional(Type.String({ description: "the answer you expect" })),
});

const NoteParams = Type.Object({
  text: Type.String({ description: "what the human (and perhaps other workers) should know" }),
  to: Type.Optional(Type.Array(Type.String(), { description: "workers (w<N>) you suggest the human tells; a suggestion only, nothing is sent to them" })),
});

/** An assistant message's text blocks joined by blank lines, exactly as produced, and its docket_done call ids. */
function assistantText(message: unknown): { text: string; callIds: string[] } | undefined {
  const m = message as { role?: string; content?: unknown };
  if (m?.role !== "assistant" || !Array.isArray(m.content)) return undefined;
  const texts: string[] = [];
  const callIds: string[] = [];
  for (const block of m.content as { type?: string; text?: string; id?: string; name?: string }[]) {
    if (block?.type === "text" && typeof block.text === "string") texts.push(block.text);
    if (block?.type === "toolCall" && block.name === "docket_done" && typeof block.id === "string") callIds.push(block.id);
  }
  return { text: texts.join("\n\n"), callIds };
}

export function registerWorkerTools(pi: ExtensionAPI, runtime: WorkerToolsRuntime): void {
  // Only messages holding a docket_done call are kept (one entry per call), so the map stays small.
  const bodies = new Map<string, string>();
  const engine = () => (typeof runtime.engine === "function" ? runtime.engine() : runtime.engine);
  const who = runtime.identity;

  pi.on("message_end", (event) => {
    const found = assistantText(event.message);
    if (!found) return;
    for (const id of found.callIds) bodies.set(id, found.text);
  });

  /** The body for a call: from message_end, else from the session branch (the same assistant message). */
  function bodyFor(toolCallId: string, ctx: ExtensionContext): string | undefined {
    const known = bodies.get(toolCallId);
    if (known !== undefined) return known;
    for (const entry of [...ctx.sessionManager.getBranch()].reverse()) {
      const found = entry.type === "message" ? assistantText((entry as { message?: unknown }).message) : undefined;
      if (found?.callIds.includes(toolCallId)) return found.text;
    }
    return undefined;
  }

  pi.registerTool({
    name: "docket_done",
    label: "Docket: done",
    description:
      "Publish your result as one frozen deliverable version for the human to review. Write the FULL deliverable text in the same message as this call: that text is the deliverable body. Your workspace changes are frozen with it. Calling again later publishes a new version.",
    parameters: DoneParams,
    async execute(toolCallId, params, _signal, _onUpdate, ctx) {
      const body = bodyFor(toolCallId, ctx);
      if (body === undefined) throw new Error("docket_done could not find the message that contains this call; write the deliverable text and call docket_done again in the same message");
      const result = run(() => done(engine(), who, { callId: toolCallId, body, ...params }));
      const lines = [`Published ${result.deliverable.ref} (v${result.deliverable.version}); the human will review it.`];
      if (body.trim() === "") lines.push("Note: the message with this call had no text, so the deliverable body is empty. To publish text, write it in the same message as a new docket_done call.");
      for (const r of result.items) lines.push(`${r.item}: ${r.status} (${r.reportId})`);
      return { content: [{ type: "text", text: lines.join("\n") }], details: result };
    },
  });

  pi.registerTool({
    name: "docket_wait",
    label: "Docket: wait",
    description: "Ask the human one question and stop until they answer. Use options, recommend and risk to make the choice quick. Name items you are blocked on in `blocked`.",
    parameters: WaitParams,
    async execute(toolCallId, params) {
      const result = run(() => wait(engine(), who, { ...params, callId: toolCallId }));
      const lines = [`Question ${result.question} is with the human. Stop now: the answer arrives as a new message; do not poll or search for it.`];
      for (const r of result.blocked) lines.push(`${r.item}: recorded as blocked`);
      return { content: [{ type: "text", text: lines.join("\n") }], details: result, terminate: true };
    },
  });

  pi.registerTool({
    name: "docket_todos",
    label: "Docket: todos",
    description: "Replace your visible progress board (at most 12 items: pending, in_progress, completed). Informational only: it never blocks docket_done.",
    parameters: TodosParams,
    async execute(toolCallId, params) {
      const result = run(() => todos(engine(), who, params.items, { callId: toolCallId }));
      const done = result.todos.filter((t) => t.state === "completed").length;
      return { content: [{ type: "text", text: `Board updated: ${result.todos.length} items, ${done} completed${result.dropped ? ` (${result.dropped} dropped)` : ""}.` }], details: result };
    },
  });

  pi.registerTool({
    name: "docket_consult",
    label: "Docket: consult",
    description: CONSULT_PURPOSE,
    parameters: ConsultParams,
    async execute(toolCallId, params) {
      const result = run(() => consult(engine(), who, { ...params, callId: toolCallId }));
      const whom = result.audience === "parent-agent" ? "the parent agent" : "the human (the consult lane is off)";
      return {
        content: [{ type: "text", text: `Consult ${result.question} is with ${whom}. Stop now: the answer arrives as a new message; do not poll or search for it.` }],
        details: result,
        terminate: true,
      };
    },
  });

  pi.registerTool({
    name: "docket_note",
    label: "Docket: note",
    description:
      "Leave the human a short notice (something others may need to know: a shared file you changed, a convention you found). It does not stop you, changes nothing, and reaches no other worker unless the human forwards it. Never put your deliverable here: that goes in docket_done.",
    parameters: NoteParams,
    async execute(toolCallId, params) {
      const result = run(() => note(engine(), who, { ...params, callId: toolCallId }));
      const to = result.suggested.length > 0 ? ` (suggested for ${result.suggested.join(", ")}; the human decides)` : "";
      return { content: [{ type: "text", text: `Noted for the human as ${result.note}${to}. Carry on with your task.` }], details: result };
    },
  });

  pi.registerTool({
    name: "docket_fail",
    label: "Docket: fail",
    description: "Give up on the task: you become failed and publish no deliverable. Use only when there is no useful partial result.",
    parameters: FailParams,
    async execute(toolCallId, params) {
      const result = run(() => fail(engine(), who, { reason: params.reason, callId: toolCallId }));
      return { content: [{ type: "text", text: `Recorded as failed: ${result.reason}` }], details: result, terminate: true };
    },
  });
}

/** Docket refusals reach the model as one line with the fix; pi marks the tool result as an error. */
function run<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isDocketError(error)) throw new Error(`${error.message}${error.hint ? ` (${error.hint})` : ""}`);
    throw error;
  }
}
