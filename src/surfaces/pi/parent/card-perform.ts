// Performs a key pressed on the verdict card: asks what the action needs in words ("What should w3 change in v1?"),
// then runs the same engine command as the CLI and the review page, bound to the version and decision on the card.

import { visibleText } from "../../../domain/text/visible-text.js";
import type { CardAction } from "../../../domain/review/card-actions.js";
import { runAction, STALE_CODES, type ActRequest } from "../../../engine/review/card-act.js";
import type { ReviewView } from "../../../engine/review/review-view.js";
import { isDocketError } from "../../../domain/errors.js";
import { engine } from "../../shared/session.js";
import type { Banner } from "./card-lines.js";
import type { CardIntent } from "./card-keys.js";
import { refusalText, showRefusal, showResult, type ParentHost } from "./host.js";

type Bound = Pick<ActRequest, "worker" | "version" | "lastDecision">;

/** Runs the intent; resolves with the banner the card shows next, or undefined when the human cancelled a dialog. */
export async function performCardIntent(host: ParentHost, view: ReviewView, intent: CardIntent): Promise<Banner | undefined> {
  const bound: Bound = { worker: view.card.worker, version: view.card.deliverable?.version ?? null, lastDecision: view.lastDecision };
  let request: ActRequest | undefined;
  try {
    request = await requestFor(host, view, bound, intent);
    if (!request) return undefined;
    const r = await runAction(engine(), request, host.parent ? { parent: host.parent } : {});
    showResult(host, r.lines);
    return { level: "info", text: r.lines.join("\n") };
  } catch (error) {
    showRefusal(host, error);
    const stale = isDocketError(error) && STALE_CODES.has(error.code);
    return { level: "error", text: `${refusalText(error)}${stale ? " — the card now shows the current state" : ""}` };
  } finally {
    if (request) host.refresh();
  }
}

async function requestFor(host: ParentHost, view: ReviewView, bound: Bound, intent: CardIntent): Promise<ActRequest | undefined> {
  const ui = host.ctx.ui;
  const w = bound.worker;
  const v = bound.version === null ? "" : ` v${bound.version}`;
  switch (intent.kind) {
    case "answer":
      return { ...bound, verb: "answer", question: intent.question, text: intent.text };
    case "say": {
      const q = view.card.detail.questions.find((x) => x.id === intent.question);
      const title = q ? `Your answer to ${w}'s question ${q.id}: ${q.text}` : `Tell ${w} (through its inbox; it reads it on its next turn):`;
      const text = (await ui.input(visibleText(title)))?.trim(); // the question is worker text
      if (!text) return undefined;
      return q ? { ...bound, verb: "answer", question: q.id, text } : { ...bound, verb: "tell", text };
    }
    case "use":
      return useRequest(host, bound, intent.actions);
    case "act":
      return actRequest(host, view, bound, intent.action, v);
    default:
      return undefined;
  }
}

async function actRequest(host: ParentHost, view: ReviewView, bound: Bound, a: CardAction, v: string): Promise<ActRequest | undefined> {
  const ui = host.ctx.ui;
  const w = bound.worker;
  switch (a.verb) {
    case "revise": {
      const next = bound.version === null ? "its next version" : `v${bound.version + 1}`;
      const drafts = view.card.comments.drafts.length;
      if (drafts > 0) {
        const note = await ui.input(`Request changes: your ${drafts} draft comment${drafts === 1 ? "" : "s"} go to ${w} as one revision (its next done becomes ${next}). A note to add? (Enter: none)`);
        return note === undefined ? undefined : { ...bound, verb: "revise", note: note.trim() };
      }
      const note = (await ui.input(`What should ${w} change in${v || " its work"}? (sent to ${w}; its next done becomes ${next})`))?.trim();
      return note ? { ...bound, verb: "revise", note } : undefined;
    }
    case "reject": {
      const note = await ui.input(`Why reject ${w}${v}? (optional: Enter without text rejects; ${w} is not told)`);
      return note === undefined ? undefined : { ...bound, verb: "reject", note: note.trim() };
    }
    case "promote":
      return (await confirmPromotion(host, view, a)) ? { ...bound, verb: "promote", withApproval: a.withApproval === true, confirm: true } : undefined;
    case "discard":
      return (await ui.confirm("docket · discard", `Drop ${w}'s live changes and reset its workspace to its base? The frozen versions stay. This cannot be undone.`))
        ? { ...bound, verb: "discard", confirm: true }
        : undefined;
    case "combine":
      return (await ui.confirm("docket · combine", `Merge ${w}${v} with ${a.peer}'s current version (git merge-tree; your checkout is not touched)?`))
        ? { ...bound, verb: "combine", peer: a.peer }
        : undefined;
    default:
      return { ...bound, verb: a.verb };
  }
}

/** Shows what the promotion would do — files, warnings, `git apply --check` against the checkout now — and asks. */
async function confirmPromotion(host: ParentHost, view: ReviewView, a: CardAction): Promise<boolean> {
  const { previewPromotion } = await import("../../../engine/review/promote-preview.js");
  const p = previewPromotion(engine(), { target: a.worker, approve: a.withApproval, expectVersion: a.version ?? undefined, expectDecision: view.lastDecision });
  const lines = [
    `${a.withApproval ? "Approve and promote" : "Promote"} ${p.ref} into ${p.root}?`,
    ...p.files.map((f) => `  ${f}`),
    ...p.warnings.map((x) => `⚠ ${x.text}`),
    p.check.ok ? "git apply --check: the patch applies cleanly" : `git apply --check fails: ${p.check.problems.map((x) => `${x.path}: ${x.reason}`).join("; ")}`,
  ];
  return host.ctx.ui.confirm("docket · promote", visibleText(lines.join("\n"))); // file names and warnings: worker text
}

const USE_LABEL: Record<string, string> = {
  implement: "Implement: start an implementer with this approved plan",
  worker: "Worker: start a fresh worker with this version as its input",
  parent: "Parent: attach the exact body to your next prompt here",
};

async function useRequest(host: ParentHost, bound: Bound, actions: readonly CardAction[]): Promise<ActRequest | undefined> {
  const ui = host.ctx.ui;
  const ref = actions[0]!.ref!;
  const picked = await ui.select(`Use ${ref} →`, actions.map((a) => USE_LABEL[a.mode!]!));
  const action = actions.find((a) => USE_LABEL[a.mode!] === picked);
  if (!action) return undefined;
  if (action.mode === "parent") return { ...bound, verb: "use", mode: "parent" };
  const implement = action.mode === "implement";
  const task = await ui.input(implement ? `Task for the implementer of ${ref}? (Enter: the plan's goal)` : `Task for a new worker from ${ref}? (Enter: work from the source)`);
  if (task === undefined) return undefined;
  const question = implement ? `Start an implementer on the approved plan ${ref}?` : `Start a fresh worker with reviewed input ${ref}?`;
  if (!(await ui.confirm("docket · use", question))) return undefined;
  return { ...bound, verb: "use", mode: action.mode, task: task.trim() };
}
