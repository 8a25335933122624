// One click or key on the page → the same engine command the CLI runs, bound to the version and the newest decision
// the page rendered: the engine refuses it (and changes nothing) when a newer version or decision landed meanwhile.

import { usageError } from "../../domain/errors.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import type { EngineContext } from "../../engine/context.js";

export interface ActRequest {
  verb: "approve" | "reject" | "revise" | "answer" | "tell" | "promote" | "discard" | "use" | "save" | "respawn" | "combine";
  worker: string;
  /** The version the card showed (null: a worker without one). */
  version: number | null;
  /** The worker's newest decision id the card showed (null: none). */
  lastDecision: string | null;
  note?: string;
  text?: string;
  question?: string;
  mode?: "parent" | "worker" | "implement";
  withApproval?: boolean;
  /** The human confirmed the warnings (promote) or the loss (discard). */
  confirm?: boolean;
  task?: string;
  /** Combine: the other worker, whose current version is merged with the card's. */
  peer?: string;
}

export interface ActResult {
  /** What happened, for the toast. */
  lines: string[];
}

/** Refusals that mean "the card you acted on is out of date": the page says why and reloads it. */
export const STALE_CODES = new Set(["version-moved", "decision-landed", "use-not-current", "question-not-open", "already-promoted", "older-version", "promotion-unrecorded", "no-open-question"]);

const VERBS = new Set<ActRequest["verb"]>(["approve", "reject", "revise", "answer", "tell", "promote", "discard", "use", "save", "respawn", "combine"]);

const text = (v: unknown, name: string, max = 100_000): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.length > max) throw usageError("bad-action", `${name} must be text of at most ${max} characters`);
  return v;
};

/** Validates the JSON body of `POST /act`; anything unexpected is a usage error that changes nothing. */
export function parseActRequest(body: unknown): ActRequest {
  if (typeof body !== "object" || body === null) throw usageError("bad-action", "the action must be a JSON object");
  const b = body as Record<string, unknown>;
  if (!VERBS.has(b.verb as ActRequest["verb"])) throw usageError("bad-action", `unknown action ${JSON.stringify(b.verb)}`);
  const worker = typeof b.worker === "string" ? normalizeWorkerId(b.worker) : undefined;
  if (!worker) throw usageError("bad-action", `"${String(b.worker)}" is not a worker id`);
  const version = b.version === null || b.version === undefined ? null : Number(b.version);
  if (version !== null && (!Number.isInteger(version) || version < 1)) throw usageError("bad-action", "version must be a positive whole number or null");
  const lastDecision = b.lastDecision === null || b.lastDecision === undefined || b.lastDecision === "" ? null : text(b.lastDecision, "lastDecision", 40)!;
  if (lastDecision !== null && !/^[a-z]{1,4}[0-9]{1,12}$/.test(lastDecision)) throw usageError("bad-action", "lastDecision is not a decision id");
  const mode = b.mode === undefined ? undefined : b.mode;
  if (mode !== undefined && mode !== "parent" && mode !== "worker" && mode !== "implement") throw usageError("bad-action", "mode must be parent, worker or implement");
  const peer = b.peer === undefined ? undefined : typeof b.peer === "string" ? normalizeWorkerId(b.peer) : undefined;
  if (b.peer !== undefined && !peer) throw usageError("bad-action", `"${String(b.peer)}" is not a worker id`);
  return {
    verb: b.verb as ActRequest["verb"], worker, version, lastDecision, note: text(b.note, "note"), text: text(b.text, "text"),
    question: text(b.question, "question", 40), mode, withApproval: b.withApproval === true, confirm: b.confirm === true, task: text(b.task, "task", 4_000), ...(peer ? { peer } : {}),
  };
}

const decisionLines = (r: { decision: { id: string; verb: string; deliverable: { ref: string } | null; worker: string }; notes: string[] }): string[] => [
  `${r.decision.id} ${r.decision.verb} ${r.decision.deliverable?.ref ?? r.decision.worker}`,
  ...r.notes,
];

export async function runAction(ctx: EngineContext, r: ActRequest): Promise<ActResult> {
  const bound = { target: r.worker, expectVersion: r.version ?? undefined, expectDecision: r.lastDecision };
  const ref = r.version === null ? undefined : `worker-deliverable:${r.worker}:${r.version}`;
  const needRef = (): string => {
    if (!ref) throw usageError("bad-action", `${r.verb} needs the version the card showed`);
    return ref;
  };
  switch (r.verb) {
    case "approve": {
      const { approve } = await import("../../engine/review/judge.js");
      return { lines: decisionLines(approve(ctx, bound)) };
    }
    case "reject": {
      const { reject } = await import("../../engine/review/judge.js");
      return { lines: decisionLines(reject(ctx, { ...bound, note: r.note?.trim() || undefined })) };
    }
    case "revise": {
      const { revise } = await import("../../engine/review/judge.js");
      return { lines: decisionLines(revise(ctx, { ...bound, note: r.note ?? "" })) };
    }
    case "answer": {
      const { answer } = await import("../../engine/review/judge.js");
      return { lines: decisionLines(answer(ctx, { worker: r.worker, question: r.question, text: r.text ?? "", expectDecision: r.lastDecision })) };
    }
    case "discard": {
      if (!r.confirm) throw usageError("discard-needs-confirmation", `discarding ${r.worker}'s live changes needs confirmation; nothing changed`);
      const { discard } = await import("../../engine/review/judge.js");
      const d = discard(ctx, { worker: r.worker, expectDecision: r.lastDecision });
      return { lines: [...decisionLines(d), ...d.files.map((f) => `dropped ${f}`)] };
    }
    case "promote": {
      const { promote } = await import("../../engine/review/promote.js");
      const p = promote(ctx, { ...bound, approve: r.withApproval, yes: r.confirm });
      return { lines: [...(p.approval ? [`${p.approval.id} approve ${p.approval.deliverable?.ref}`] : []), `${p.decision.id} promote ${p.decision.deliverable?.ref}`, ...p.files.map((f) => `  ${f}`), ...p.notes] };
    }
    case "use": {
      const use = await import("../../engine/handoff/use.js");
      if (r.mode === "parent") return { lines: use.useForParent(ctx, { target: needRef(), expectDecision: r.lastDecision }).notes };
      const u = await use.useForWorker(ctx, { target: needRef(), task: r.task?.trim() || undefined, implement: r.mode === "implement", yes: true, interactive: false, expectDecision: r.lastDecision });
      return { lines: u.notes };
    }
    case "tell": {
      const { tellWorker } = await import("../../engine/talk/tell.js");
      const t = tellWorker(ctx, { worker: r.worker, text: r.text ?? "" });
      return { lines: [`${t.message} queued for ${r.worker}${t.waiting ? " (not running: it waits in the inbox until a respawn)" : ""}`] };
    }
    case "save": {
      const { saveFromWorker } = await import("../../engine/store/save.js");
      const s = saveFromWorker(ctx, { from: needRef() });
      return { lines: [`${s.idempotent ? "already stored" : "stored"} as ${s.ref}`] };
    }
    case "combine": {
      if (!r.peer) throw usageError("bad-action", "combine needs the other worker (peer)");
      const { combineChangeSets } = await import("../../engine/review/combine.js");
      const c = combineChangeSets(ctx, { sources: [needRef(), r.peer] });
      return { lines: [c.summary, ...c.notes] };
    }
    case "respawn": {
      const { respawnWorker } = await import("../../engine/workers/respawn.js");
      const s = respawnWorker(ctx, r.worker);
      return { lines: [`${s.worker} respawned at generation ${s.generation}`] };
    }
  }
}
