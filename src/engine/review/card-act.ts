// One structured card action (a click, a key) → the same engine command the CLI runs, bound to the version and the
// newest decision the surface rendered: refused (nothing changes) when a newer version or decision landed meanwhile.

import {
  actionRefOf,
  deliverableRef,
  exactRefOf,
  parseSubject,
  type ReviewableRef,
} from "../../domain/deliverables/refs.js";
import { notFound, usageError } from "../../domain/errors.js";
import { quotePath } from "../../domain/text/quote-path.js";
import type { CardVerb } from "../../domain/review/card-actions.js";
import { formatAnchor, type CommentSide } from "../../domain/review/comment-anchor.js";
import type { EngineContext } from "../context.js";
import type { SpawnInput } from "../workers/spawn.js";

type SpawnParent = NonNullable<SpawnInput["parent"]>;

export interface ActRequest {
  verb: CardVerb | CommentVerb | typeof CHOOSE_VERB;
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
  /** A new comment: the file's position in the frozen patch, the side, the lines (null: the whole file), under `text`. */
  anchor?: { file: number; side: CommentSide; start: number | null; end: number | null };
  /** The draft an edit or delete acts on. */
  comment?: string;
  /** Idempotency key of a comment write (a double click adds one comment). */
  key?: string;
}

export const COMMENT_VERBS = ["comment", "comment-edit", "comment-delete"] as const;
/** A best-of group page's one action: choose the candidate version it showed (engine/groups/choose.ts). */
export const CHOOSE_VERB = "choose";
export type CommentVerb = (typeof COMMENT_VERBS)[number];

export interface ActResult {
  /** What happened, for the toast. */
  lines: string[];
}

/** Refusals that mean "the card you acted on is out of date": the page says why and reloads it. */
export const STALE_CODES = new Set([
  "version-moved",
  "decision-landed",
  "use-not-current",
  "question-not-open",
  "already-promoted",
  "older-version",
  "promotion-unrecorded",
  "no-open-question",
  "comment-version-not-current",
  "comment-outdated",
  "candidate-moved-since-shown",
]);

const decisionLines = (r: {
  decision: { id: string; verb: string; deliverable: { ref: string } | null; worker: string };
  notes: string[];
}): string[] => [`${r.decision.id} ${r.decision.verb} ${r.decision.deliverable?.ref ?? r.decision.worker}`, ...r.notes];

/** What every judgment and move of a card is bound to: the version shown and the newest decision shown. */
interface Bound {
  target: string | ReviewableRef;
  expectVersion: number | undefined;
  expectDecision: string | null;
}

/**
 * `parent`: the live pi session a Use → Worker inherits its model and thinking from (docs/decisions/spawn-policy.md).
 */
export async function runAction(
  ctx: EngineContext,
  r: ActRequest,
  options: { parent?: SpawnParent } = {},
): Promise<ActResult> {
  // The card's subject is parsed once here; the verbs it runs are handed the ref (one that is none is theirs to refuse).
  const subject = parseSubject(r.worker);
  const bound: Bound = {
    target: subject ? actionRefOf(subject, r.version) : r.worker,
    expectVersion: r.version ?? undefined,
    expectDecision: r.lastDecision,
  };
  const ref =
    r.version === null ? undefined : subject ? exactRefOf(subject, r.version) : deliverableRef(r.worker, r.version);
  const needRef = (): string => {
    if (!ref) throw usageError("bad-action", `${r.verb} needs the version the card showed`);
    return ref;
  };
  switch (r.verb) {
    case "approve":
    case "reject":
    case "revise":
    case "answer":
    case "discard":
      return judgeAction(ctx, r.verb, r, bound);
    case "promote":
    case "use":
    case "save":
    case "combine":
      return moveAction(ctx, r.verb, r, { bound, needRef, parent: options.parent });
    case "tell": {
      const { tellWorker } = await import("../talk/tell.js");
      const t = tellWorker(ctx, { worker: r.worker, text: r.text ?? "" });
      return {
        lines: [
          `${t.message} ${t.delivery === "delivered" ? "pasted into the pane of" : "queued for"} ${r.worker}${t.waiting ? " (not running: it waits in the inbox until a respawn)" : ""}`,
        ],
      };
    }
    case "comment":
    case "comment-edit":
    case "comment-delete":
      return commentAction(ctx, r, needRef);
    case CHOOSE_VERB: {
      const { chooseCandidate } = await import("../groups/choose.js");
      const reason = r.note?.trim() ? { reason: r.note } : {};
      return { lines: chooseCandidate(ctx, { ref: needRef(), ...reason }).notes };
    }
    case "respawn": {
      const { respawnWorker } = await import("../workers/respawn.js");
      const s = respawnWorker(ctx, r.worker);
      return { lines: [`${s.worker} respawned at generation ${s.generation}`] };
    }
  }
}

/** The human's judgments of the version shown: each one decision. */
async function judgeAction(
  ctx: EngineContext,
  verb: "approve" | "reject" | "revise" | "answer" | "discard",
  r: ActRequest,
  bound: Bound,
): Promise<ActResult> {
  const judge = await import("./judge.js");
  switch (verb) {
    case "approve":
      return { lines: decisionLines(judge.approve(ctx, bound)) };
    case "reject":
      return { lines: decisionLines(judge.reject(ctx, { ...bound, note: r.note?.trim() || undefined })) };
    case "revise":
      return { lines: decisionLines(judge.revise(ctx, { ...bound, note: r.note ?? "" })) };
    case "answer": {
      const answered = judge.answer(ctx, {
        worker: r.worker,
        question: r.question,
        text: r.text ?? "",
        expectDecision: r.lastDecision,
      });
      return { lines: decisionLines(answered) };
    }
    case "discard": {
      const d = judge.discard(ctx, { worker: r.worker, expectDecision: r.lastDecision, confirmed: r.confirm === true });
      return { lines: [...decisionLines(d), ...d.files.map((f) => `dropped ${quotePath(f)}`)] };
    }
  }
}

/** What the human does with an approved or current version: promote it, hand it on, store it, combine it. */
async function moveAction(
  ctx: EngineContext,
  verb: "promote" | "use" | "save" | "combine",
  r: ActRequest,
  at: { bound: Bound; needRef: () => string; parent: SpawnParent | undefined },
): Promise<ActResult> {
  switch (verb) {
    case "promote": {
      const { promote } = await import("./promote.js");
      const p = promote(ctx, { ...at.bound, approve: r.withApproval, yes: r.confirm });
      return {
        lines: [
          ...(p.approval ? [`${p.approval.id} approve ${p.approval.deliverable?.ref}`] : []),
          `${p.decision.id} promote ${p.decision.deliverable?.ref}`,
          ...p.files.map((f) => `  ${quotePath(f)}`),
          ...p.notes,
        ],
      };
    }
    case "use": {
      const use = await import("../handoff/use.js");
      if (r.mode === "parent")
        return { lines: use.useForParent(ctx, { target: at.needRef(), expectDecision: r.lastDecision }).notes };
      const u = await use.useForWorker(ctx, {
        target: at.needRef(),
        task: r.task?.trim() || undefined,
        implement: r.mode === "implement",
        yes: true,
        interactive: false,
        expectDecision: r.lastDecision,
        ...(at.parent ? { parent: at.parent } : {}),
      });
      return { lines: u.notes };
    }
    case "save": {
      const { saveFromWorker } = await import("../store/save.js");
      const s = saveFromWorker(ctx, { from: at.needRef() });
      return { lines: [`${s.idempotent ? "already stored" : "stored"} as ${s.ref}`] };
    }
    case "combine": {
      if (!r.peer) throw usageError("bad-action", "combine needs the other worker (peer)");
      const { combineChangeSets } = await import("./combine.js");
      const c = combineChangeSets(ctx, { sources: [at.needRef(), r.peer] });
      return { lines: [c.summary, ...c.notes] };
    }
  }
}

async function commentAction(ctx: EngineContext, r: ActRequest, needRef: () => string): Promise<ActResult> {
  const comments = await import("./comments.js");
  const said = (verb: string, c: { id: string; anchor: Parameters<typeof formatAnchor>[0] }) => ({
    lines: [`${c.id} ${verb} · ${formatAnchor(c.anchor)}`],
  });
  if (r.verb === "comment-edit")
    return said("edited", comments.editComment(ctx, { id: r.comment ?? "", text: r.text ?? "", key: r.key }));
  if (r.verb === "comment-delete")
    return said("deleted", comments.deleteComment(ctx, { id: r.comment ?? "", key: r.key }));
  if (!r.anchor) throw usageError("bad-action", "a comment needs its anchor (file, side, lines)");
  const { frozenDiffFiles } = await import("./diff-context.js");
  const ref = needRef();
  const f = frozenDiffFiles(ctx, ref).files[r.anchor.file];
  if (!f) throw notFound("no-such-file", `${ref} has no file #${r.anchor.file}`);
  const location = { file: r.anchor.side === "old" ? f.oldPath : f.path, start: r.anchor.start, end: r.anchor.end };
  return said(
    "drafted",
    comments.addComment(ctx, { target: ref, location, side: r.anchor.side, text: r.text ?? "", key: r.key }),
  );
}
