// A card's action → the structured request `runAction` takes, asking in words what the action needs ("What should w3
// change in v1?"). The CLI's menu and pi's card keys each supply a small prompter (input, confirm, select) and send the
// request to the same dispatcher as the review page, bound to the version and newest decision the card showed.

import { visibleText } from "../../domain/text/visible-text.js";
import type { CardAction } from "../../domain/review/card-actions.js";
import type { ActRequest } from "../../engine/review/card-act.js";
import type { ReviewView } from "../../engine/review/review-view.js";
import type { EngineOpener } from "./session.js";

/** How a surface asks the human. `input` and `select` give undefined when the human cancelled. */
export interface Prompter {
  input(question: string): Promise<string | undefined>;
  confirm(title: string, question: string): Promise<boolean>;
  select(title: string, options: string[]): Promise<string | undefined>;
}

export type Bound = Pick<ActRequest, "worker" | "version" | "lastDecision">;

/** What the card showed, which every request is bound to. */
export const boundOf = (view: ReviewView): Bound => ({
  worker: view.card.worker,
  version: view.card.deliverable?.version ?? null,
  lastDecision: view.lastDecision,
});

/** The request for one of the card's actions, or undefined when the human cancelled a question. */
/** `engine` previews a promotion before asking; nothing else here reads the ledger. */
export async function requestForAction(
  p: Prompter,
  view: ReviewView,
  a: CardAction,
  engine: EngineOpener,
): Promise<ActRequest | undefined> {
  const bound = boundOf(view);
  const w = bound.worker;
  const v = bound.version === null ? "" : ` v${bound.version}`;
  switch (a.verb) {
    case "revise": {
      const next = bound.version === null ? "its next version" : `v${bound.version + 1}`;
      const drafts = view.card.comments.drafts.length;
      if (drafts > 0) {
        const note = await p.input(
          `Request changes: your ${drafts} draft comment${drafts === 1 ? "" : "s"} go to ${w} as one revision (its next done becomes ${next}). A note to add? (Enter: none)`,
        );
        return note === undefined ? undefined : { ...bound, verb: "revise", note: note.trim() };
      }
      const note = (
        await p.input(`What should ${w} change in${v || " its work"}? (sent to ${w}; its next done becomes ${next})`)
      )?.trim();
      return note ? { ...bound, verb: "revise", note } : undefined;
    }
    case "reject": {
      const note = await p.input(`Why reject ${w}${v}? (optional: Enter without text rejects; ${w} is not told)`);
      return note === undefined ? undefined : { ...bound, verb: "reject", note: note.trim() };
    }
    case "answer":
      return answerRequest(p, view, bound);
    case "tell":
      return tellRequest(p, bound);
    case "promote":
      return (await confirmPromotion(p, view, a, engine))
        ? { ...bound, verb: "promote", withApproval: a.withApproval === true, confirm: true }
        : undefined;
    case "discard":
      return (await p.confirm(
        "docket · discard",
        `Drop ${w}'s live changes and reset its workspace to its base? The frozen versions stay. This cannot be undone.`,
      ))
        ? { ...bound, verb: "discard", confirm: true }
        : undefined;
    case "combine":
      return (await p.confirm(
        "docket · combine",
        `Merge ${w}${v} with ${a.peer}'s current version (git merge-tree; your checkout is not touched)?`,
      ))
        ? { ...bound, verb: "combine", peer: a.peer }
        : undefined;
    case "use":
      return useRequest(p, bound, a);
    default:
      return { ...bound, verb: a.verb };
  }
}

/** A message for the worker's inbox. */
export async function tellRequest(p: Prompter, bound: Bound): Promise<ActRequest | undefined> {
  const text = (await p.input(`Tell ${bound.worker} (through its inbox; it reads it on its next turn):`))?.trim();
  return text ? { ...bound, verb: "tell", text } : undefined;
}

/** The oldest open question: one of its options, or text of the human's own. */
async function answerRequest(p: Prompter, view: ReviewView, bound: Bound): Promise<ActRequest | undefined> {
  const q = view.card.detail.questions[0];
  if (!q) return undefined;
  const own = "something else";
  const picked =
    q.options.length > 0
      ? await p.select(visibleText(`${q.id}: ${q.text}`), [...q.options.map(visibleText), own])
      : own;
  if (picked === undefined) return undefined;
  const text =
    picked === own
      ? (await p.input(visibleText(`Your answer to ${bound.worker}'s question ${q.id}: ${q.text}`)))?.trim()
      : q.options[q.options.map(visibleText).indexOf(picked)];
  return text ? { ...bound, verb: "answer", question: q.id, text } : undefined;
}

/** Shows what the promotion would do — files, warnings, `git apply --check` against the checkout now — and asks. */
async function confirmPromotion(p: Prompter, view: ReviewView, a: CardAction, engine: EngineOpener): Promise<boolean> {
  const { previewPromotion } = await import("../../engine/review/promote-preview.js");
  const plan = previewPromotion(engine(), {
    target: a.worker,
    approve: a.withApproval,
    expectVersion: a.version ?? undefined,
    expectDecision: view.lastDecision,
  });
  const lines = [
    `${a.withApproval ? "Approve and promote" : "Promote"} ${plan.ref} into ${plan.root}?`,
    ...plan.files.map((f) => `  ${f}`),
    ...plan.warnings.map((x) => `⚠ ${x.text}`),
    plan.check.ok
      ? "git apply --check: the patch applies cleanly"
      : `git apply --check fails: ${plan.check.problems.map((x) => `${x.path}: ${x.reason}`).join("; ")}`,
  ];
  return p.confirm("docket · promote", visibleText(lines.join("\n"))); // file names and warnings: worker text
}

/** Use → Worker / Implement asks for the task and a yes; Use → Parent needs neither. */
async function useRequest(p: Prompter, bound: Bound, a: CardAction): Promise<ActRequest | undefined> {
  if (a.mode === "parent") return { ...bound, verb: "use", mode: "parent" };
  const implement = a.mode === "implement";
  const task = await p.input(
    implement
      ? `Task for the implementer of ${a.ref}? (Enter: the plan's goal)`
      : `Task for a new worker from ${a.ref}? (Enter: work from the source)`,
  );
  if (task === undefined) return undefined;
  const question = implement
    ? `Start an implementer on the approved plan ${a.ref}?`
    : `Start a fresh worker with reviewed input ${a.ref}?`;
  if (!(await p.confirm("docket · use", question))) return undefined;
  return { ...bound, verb: "use", mode: a.mode, task: task.trim() };
}
