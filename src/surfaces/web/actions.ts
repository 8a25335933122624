// The body of `POST /act` checked into a structured card action; the engine runs it (engine/review/card-act.ts), bound
// to the version and the newest decision the page rendered.

import { CARD_VERB_NAMES } from "../../domain/review/card-actions.js";
import { usageError } from "../../domain/errors.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import { parseSubject } from "../../domain/deliverables/refs.js";
import { CHOOSE_VERB, COMMENT_VERBS, type ActRequest } from "../../engine/review/card-act.js";

const VERBS = new Set<ActRequest["verb"]>([...CARD_VERB_NAMES, ...COMMENT_VERBS, CHOOSE_VERB]);

const text = (v: unknown, name: string, max = 100_000): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || v.length > max)
    throw usageError("bad-action", `${name} must be text of at most ${max} characters`);
  return v;
};

/** Validates the JSON body of `POST /act`; anything unexpected is a usage error that changes nothing. */
export function parseActRequest(body: unknown): ActRequest {
  if (typeof body !== "object" || body === null) throw usageError("bad-action", "the action must be a JSON object");
  const b = body as Record<string, unknown>;
  if (!VERBS.has(b.verb as ActRequest["verb"]))
    throw usageError("bad-action", `unknown action ${JSON.stringify(b.verb)}`);
  // A card's subject: a worker, or a combined pair (its card acts on the combined version).
  const subject = typeof b.worker === "string" ? parseSubject(b.worker) : undefined;
  const worker = subject?.kind === "combined" ? subject.key : subject?.worker;
  if (!worker) throw usageError("bad-action", `"${String(b.worker)}" is not a worker id or a combined pair`);
  const version = b.version === null || b.version === undefined ? null : Number(b.version);
  if (version !== null && (!Number.isInteger(version) || version < 1))
    throw usageError("bad-action", "version must be a positive whole number or null");
  const lastDecision =
    b.lastDecision === null || b.lastDecision === undefined || b.lastDecision === ""
      ? null
      : text(b.lastDecision, "lastDecision", 40)!;
  if (lastDecision !== null && !/^[a-z]{1,4}[0-9]{1,12}$/.test(lastDecision))
    throw usageError("bad-action", "lastDecision is not a decision id");
  const mode = b.mode === undefined ? undefined : b.mode;
  if (mode !== undefined && mode !== "parent" && mode !== "worker" && mode !== "implement")
    throw usageError("bad-action", "mode must be parent, worker or implement");
  const peer = b.peer === undefined ? undefined : typeof b.peer === "string" ? normalizeWorkerId(b.peer) : undefined;
  if (b.peer !== undefined && !peer) throw usageError("bad-action", `"${String(b.peer)}" is not a worker id`);
  const anchor = b.anchor === undefined ? undefined : parseAnchor(b.anchor);
  const comment = text(b.comment, "comment", 20);
  if (comment !== undefined && !/^cm[1-9][0-9]{0,11}$/.test(comment))
    throw usageError("bad-action", "comment is not a comment id");
  const key = text(b.key, "key", 200);
  return {
    ...(anchor ? { anchor } : {}),
    ...(comment ? { comment } : {}),
    ...(key ? { key } : {}),
    verb: b.verb as ActRequest["verb"],
    worker,
    version,
    lastDecision,
    note: text(b.note, "note"),
    text: text(b.text, "text"),
    question: text(b.question, "question", 40),
    mode,
    withApproval: b.withApproval === true,
    confirm: b.confirm === true,
    task: text(b.task, "task", 4_000),
    ...(peer ? { peer } : {}),
  };
}

const lineOrNull = (v: unknown): number | null => {
  if (v === null || v === undefined) return null;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1)
    throw usageError("bad-action", "comment lines must be positive whole numbers or null");
  return v;
};

function parseAnchor(v: unknown): NonNullable<ActRequest["anchor"]> {
  if (typeof v !== "object" || v === null)
    throw usageError("bad-action", "anchor must be an object {file, side, start, end}");
  const a = v as Record<string, unknown>;
  if (typeof a.file !== "number" || !Number.isSafeInteger(a.file) || a.file < 0)
    throw usageError("bad-action", "anchor.file must be the file's position in the patch");
  if (a.side !== "old" && a.side !== "new") throw usageError("bad-action", "anchor.side must be old or new");
  return { file: a.file, side: a.side, start: lineOrNull(a.start), end: lineOrNull(a.end) };
}
