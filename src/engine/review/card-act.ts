// One structured card action (a click, a key) → the same engine command the CLI runs, bound to the version and the
// newest decision the surface rendered: refused (nothing changes) when a newer version or decision landed meanwhile.

import { actionTargetOf, versionRefOf } from "../../domain/deliverables/refs.js";
import { notFound, usageError } from "../../domain/errors.js";
import { quotePath } from "../../domain/text/quote-path.js";
import type { CardVerb } from "../../domain/review/card-actions.js";
import { formatAnchor, type CommentSide } from "../../domain/review/comment-anchor.js";
import type { EngineContext } from "../context.js";
import type { SpawnInput } from "../workers/spawn.js";

type SpawnParent = NonNullable<SpawnInput["parent"]>;

export interface ActRequest {
  verb: CardVerb | CommentVerb;
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
]);

const decisionLines = (r: {
  decision: { id: string; verb: string; deliverable: { ref: string } | null; worker: string };
  notes: string[];
}): string[] => [`${r.decision.id} ${r.decision.verb} ${r.decision.deliverable?.ref ?? r.decision.worker}`, ...r.notes];

/** `parent`: the live pi session a Use → Worker inherits its model and thinking from (ADR-0004). */
export async function runAction(
  ctx: EngineContext,
  r: ActRequest,
  options: { parent?: SpawnParent } = {},
): Promise<ActResult> {
  const bound = {
    target: actionTargetOf(r.worker, r.version),
    expectVersion: r.version ?? undefined,
    expectDecision: r.lastDecision,
  };
  const ref = r.version === null ? undefined : versionRefOf(r.worker, r.version);
  const needRef = (): string => {
    if (!ref) throw usageError("bad-action", `${r.verb} needs the version the card showed`);
    return ref;
  };
  switch (r.verb) {
    case "approve": {
      const { approve } = await import("./judge.js");
      return { lines: decisionLines(approve(ctx, bound)) };
    }
    case "reject": {
      const { reject } = await import("./judge.js");
      return { lines: decisionLines(reject(ctx, { ...bound, note: r.note?.trim() || undefined })) };
    }
    case "revise": {
      const { revise } = await import("./judge.js");
      return { lines: decisionLines(revise(ctx, { ...bound, note: r.note ?? "" })) };
    }
    case "answer": {
      const { answer } = await import("./judge.js");
      return {
        lines: decisionLines(
          answer(ctx, { worker: r.worker, question: r.question, text: r.text ?? "", expectDecision: r.lastDecision }),
        ),
      };
    }
    case "discard": {
      const { discard } = await import("./judge.js");
      const d = discard(ctx, { worker: r.worker, expectDecision: r.lastDecision, confirmed: r.confirm === true });
      return { lines: [...decisionLines(d), ...d.files.map((f) => `dropped ${quotePath(f)}`)] };
    }
    case "promote": {
      const { promote } = await import("./promote.js");
      const p = promote(ctx, { ...bound, approve: r.withApproval, yes: r.confirm });
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
        return { lines: use.useForParent(ctx, { target: needRef(), expectDecision: r.lastDecision }).notes };
      const u = await use.useForWorker(ctx, {
        target: needRef(),
        task: r.task?.trim() || undefined,
        implement: r.mode === "implement",
        yes: true,
        interactive: false,
        expectDecision: r.lastDecision,
        ...(options.parent ? { parent: options.parent } : {}),
      });
      return { lines: u.notes };
    }
    case "tell": {
      const { tellWorker } = await import("../talk/tell.js");
      const t = tellWorker(ctx, { worker: r.worker, text: r.text ?? "" });
      return {
        lines: [
          `${t.message} ${t.delivery === "delivered" ? "pasted into the pane of" : "queued for"} ${r.worker}${t.waiting ? " (not running: it waits in the inbox until a respawn)" : ""}`,
        ],
      };
    }
    case "save": {
      const { saveFromWorker } = await import("../store/save.js");
      const s = saveFromWorker(ctx, { from: needRef() });
      return { lines: [`${s.idempotent ? "already stored" : "stored"} as ${s.ref}`] };
    }
    case "combine": {
      if (!r.peer) throw usageError("bad-action", "combine needs the other worker (peer)");
      const { combineChangeSets } = await import("./combine.js");
      const c = combineChangeSets(ctx, { sources: [needRef(), r.peer] });
      return { lines: [c.summary, ...c.notes] };
    }
    case "comment":
    case "comment-edit":
    case "comment-delete":
      return commentAction(ctx, r, needRef);
    case "respawn": {
      const { respawnWorker } = await import("../workers/respawn.js");
      const s = respawnWorker(ctx, r.worker);
      return { lines: [`${s.worker} respawned at generation ${s.generation}`] };
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
