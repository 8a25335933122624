// The door's calls: each request from a worker's socket run on the engine exactly as the worker's own process once
// ran it (one command, its idempotency key, the fence). Input arrives as untrusted JSON, checked before anything runs.

import { DocketError, isDocketError, usageError, validationError } from "../../domain/errors.js";
import { explainFailure } from "../../engine/failures.js";
import { doneOffLoop } from "../../engine/protocol/done-off-loop.js";
import type { DoorCall } from "../../domain/door.js";
import type { AddressedComment } from "../../domain/deliverables/deliverable.js";
import type { Evidence, ReportEntryInput } from "../../domain/work/report.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { EngineContext } from "../../engine/context.js";
import { isSentFile, jsonListOf } from "../../engine/protocol/input.js";
import { reportFileEntries } from "../../engine/protocol/report-file.js";
import { checkCallId, fail, todos, wait } from "../../engine/protocol/protocol.js";
import { consult, note } from "../../engine/protocol/consult.js";
import { reportEntries } from "../../engine/protocol/report.js";
import { reconcileItem } from "../../engine/protocol/reconcile.js";
import { claimInbox, formatInboxMessage, markInboxRead } from "../../engine/talk/inbox.js";
import { deliverToAgentPane } from "../../engine/talk/agent-inbox.js";
import { recordHeartbeat, recordTurn, recordWorkerExit } from "../../engine/workers/lifecycle.js";
import { AGENT_HOOK_EVENTS, recordAgentHook } from "../../engine/workers/agent-hooks.js";
import { appendKeyedWorkerEvent, appendWorkerEvent } from "../../engine/workers/events.js";
import { recordTouches, type RawTouch } from "../../engine/workers/touches.js";
import { workerGuardrails } from "../../engine/workers/guardrails.js";
import { planGateState } from "../../engine/workers/kind-integrity.js";
import { BlockedWire, ConsultWire, NoteWire, TodoWire, parseWire } from "../shared/worker-wire.js";
import { callTool, listTools } from "../shared/mcp-tools.js";

type Args = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const strs = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? v : undefined;
const list = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);

function file(args: Args, name: string) {
  const f = args[name];
  if (f === undefined) return undefined;
  if (!isSentFile(f)) throw validationError("door-bad-request", `${name} must be {path, text}`);
  return f;
}

type WorkerCall = Exclude<DoorCall, "inbox-wait">;
type Handler = (ctx: EngineContext, who: WorkerIdentity, args: Args) => unknown;

/** Runs one worker call for `who` (the socket's generation, the caller's token) on the engine of its project. */
export function runCall(ctx: EngineContext, who: WorkerIdentity, call: WorkerCall, args: Args): unknown {
  return CALLS[call](ctx, who, args);
}

/**
 * A call's error as the worker's agent reads it: a full disk under the home is `disk-full`, saying that the human
 * must free space and that the same call, repeated then, lands once (nothing of it was half written).
 */
export async function explainForWorker(error: unknown, env: NodeJS.ProcessEnv): Promise<unknown> {
  const explained = await explainFailure(error, env);
  if (!isDocketError(explained) || explained.code !== "disk-full") return explained;
  return new DocketError("refusal", "disk-full", explained.message, {
    hint:
      "stop and tell the human: they must free space on that disk (`df -h` shows it; old worker workspaces and " +
      "`docket prune` free the most); then repeat this same call, with the same call id, and it lands once",
    cause: explained,
  });
}

/** The calls a worker makes about its work: reports, questions, todos and the final word. */
const WORK_CALLS = {
  done: (ctx, who, args) => {
    const items = file(args, "itemsFile");
    return doneOffLoop(ctx, who, {
      callId: str(args.callId),
      body: str(args.body) ?? "",
      outcome: str(args.outcome) ?? "",
      summary: str(args.summary),
      evidence: list(args.evidence) as Evidence[] | undefined,
      recommendations: strs(args.recommendations),
      items: items ? reportFileEntries(items) : (list(args.items) as ReportEntryInput[] | undefined),
      addressed: list(args.addressed) as AddressedComment[] | undefined, // checked by done, with its preface
    });
  },
  wait: (ctx, who, args) => {
    const f = file(args, "blockedFile");
    const blocked = f
      ? jsonListOf(f, "{item, body}").map((e, i) => parseWire(BlockedWire, e, `${f.path} entry ${i + 1}`))
      : (list(args.blocked) as { item: string; body: string }[] | undefined);
    return wait(ctx, who, {
      question: str(args.question) ?? "",
      options: strs(args.options),
      recommend: str(args.recommend),
      risk: str(args.risk),
      blocked,
      callId: str(args.callId),
    });
  },
  todos: (ctx, who, args) => {
    const f = file(args, "itemsFile");
    const items = f
      ? jsonListOf(f, "{id?, text, state?}").map((e, i) => parseWire(TodoWire, e, `${f.path} entry ${i + 1}`))
      : (list(args.items) ?? []).map((e, i) => parseWire(TodoWire, e, `docket_todos item ${i + 1}`));
    return todos(ctx, who, items, { callId: str(args.callId) });
  },
  fail: (ctx, who, args) => fail(ctx, who, { reason: str(args.reason) ?? "", callId: str(args.callId) }),
  consult: (ctx, who, args) => {
    const { callId, what, ...rest } = args;
    return consult(ctx, who, { ...parseWire(ConsultWire, rest, str(what) ?? "docket_consult"), callId: str(callId) });
  },
  note: (ctx, who, args) => {
    const { callId, what, ...rest } = args;
    return note(ctx, who, { ...parseWire(NoteWire, rest, str(what) ?? "docket_note"), callId: str(callId) });
  },
  report: (ctx, who, args) => {
    const f = file(args, "file");
    const key = str(args.key);
    const entries = f
      ? reportFileEntries(f).map((e) => ({ ...e, callId: e.callId ?? key }))
      : ((list(args.entries) ?? []) as ReportEntryInput[]);
    return { results: reportEntries(ctx, who, entries) };
  },
  reconcile: (ctx, who, args) => reconcileItem(ctx, who, str(args.item) ?? ""),
} satisfies Record<string, Handler>;

/** The calls a worker's wrapper and agent make about its life: heartbeats, turns, hooks, events and exit. */
const LIFE_CALLS = {
  heartbeat: (ctx, who, args) => {
    // A worker that beats will call done: its first done should not wait for the capture thread to start (~50 ms).
    ctx.git.readyCaptureThread();
    const pid = typeof args.pid === "number" && Number.isInteger(args.pid) && args.pid > 0 ? args.pid : undefined;
    const seen = { model: str(args.model) ?? null, thinking: str(args.thinking) ?? null, pid };
    return recordHeartbeat(ctx, who, seen, str(args.callId));
  },
  exited: (ctx, who, args) => {
    const code = args.code;
    if (typeof code !== "number" || !Number.isInteger(code) || code < 0 || code > 255) {
      throw usageError("bad-flag", `--code must be an exit status 0-255; got "${String(code)}"`);
    }
    return recordWorkerExit(ctx, who, code);
  },
  turn: (ctx, who, args) => {
    if (args.event !== "start" && args.event !== "end") {
      throw validationError("door-bad-request", "turn takes event start or end");
    }
    return { state: recordTurn(ctx, who, args.event, str(args.callId)) };
  },
  hook: (ctx, who, args) => {
    const event = AGENT_HOOK_EVENTS.find((e) => e === args.event);
    if (!event) throw validationError("door-bad-request", `unknown hook event ${JSON.stringify(args.event)}`);
    return recordAgentHook(ctx, who, event, args.payload);
  },
  event: (ctx, who, args) => {
    const event = args.event;
    if (typeof event !== "object" || event === null || Array.isArray(event)) {
      throw validationError("door-bad-request", "event must be an object");
    }
    // The key is the call's, never the worker's to set inside the event.
    const { key: _given, ...fields } = event as Args;
    const line = { ...fields, generation: who.generation };
    const callId = str(args.callId);
    if (callId === undefined) appendWorkerEvent(ctx, who.worker, line);
    else appendKeyedWorkerEvent(ctx, who.worker, line, `${who.generation}/${checkCallId(callId)}`);
    return {};
  },
  touches: (ctx, who, args) => {
    const isTouch = (t: unknown): t is RawTouch =>
      typeof (t as RawTouch)?.path === "string" && ["read", "edit"].includes((t as RawTouch).how);
    return { recorded: recordTouches(ctx, who, (list(args.touches) ?? []).filter(isTouch), str(args.callId)) };
  },
} satisfies Record<string, Handler>;

/** The calls that read or deliver: the inbox, the guardrails, the plan gate and the MCP tools. */
const READ_CALLS = {
  "inbox-claim": (ctx, who, args) => ({
    messages: claimInbox(ctx, who, str(args.key)).map((m) => ({ ...m, text: formatInboxMessage(m) })),
  }),
  "inbox-read": (ctx, who, args) => ({ read: markInboxRead(ctx, who, strs(args.ids) ?? []) }),
  "deliver-pane": (ctx, who) => ({ delivered: deliverToAgentPane(ctx, who) }),
  guardrails: (ctx, who) => ({ text: workerGuardrails(ctx, who.worker) }),
  gate: (ctx, who) => ({ state: planGateState(ctx, who.worker) }),
  "mcp-list": (_ctx, _who, args) => ({ tools: listTools(str(args.client)) }),
  "mcp-call": (ctx, who, args) => {
    const r = args.request as { name?: unknown; arguments?: unknown; _meta?: unknown } | undefined;
    const obj = (v: unknown) =>
      typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    return callTool(() => ctx, who, { name: str(r?.name) ?? "", arguments: obj(r?.arguments), _meta: obj(r?._meta) });
  },
} satisfies Record<string, Handler>;

const CALLS: Record<WorkerCall, Handler> = { ...WORK_CALLS, ...LIFE_CALLS, ...READ_CALLS };
