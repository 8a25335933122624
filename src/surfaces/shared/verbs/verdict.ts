// `docket verdict`: prints the card (or the queue of cards); on a terminal, offers the card's actions as a
// numbered menu. Every action goes through the same engine verbs as the CLI, bound to the version shown.

import { quotePath } from "../../../domain/text/quote-path.js";
import { refusal } from "../../../domain/errors.js";
import type { CardMove } from "../../../domain/review/card-actions.js";
import type { VerdictCard } from "../../../engine/review/verdict.js";
import type { Io } from "../io.js";
import { engine } from "../session.js";

const contract = (c: VerdictCard) => ({
  worker: c.worker, state: c.state, deliverable: c.deliverable, approved: c.approved, warnings: c.warnings, actions: c.actions,
  planCoverage: c.planCoverage, comments: c.comments, spend: c.spend,
});

export async function runVerdict(io: Io, target: string | undefined, version?: number): Promise<void> {
  const { formatVerdictCard, verdictCard, verdictQueue } = await import("../../../engine/review/verdict.js");
  const ctx = engine();
  const cards = target === undefined ? verdictQueue(ctx) : [verdictCard(ctx, target, { version })];
  const { recordShown } = await import("../../../engine/review/shown.js");
  const shown = () => recordShown(ctx, cards.map((c) => c.deliverable && { worker: c.worker, ...c.deliverable }), io.parent ? "pi" : "cli");
  if (io.json) {
    io.out(JSON.stringify(target === undefined ? { queue: cards.map(contract) } : contract(cards[0]!)));
    shown();
    return;
  }
  if (cards.length === 0) {
    io.out("nothing needs judgment (no open questions, failures or unjudged ready versions in this project)");
    return;
  }
  const { findWebServer, webCardUrl } = await import("../../../engine/web/presence.js");
  const web = await findWebServer(ctx);
  if (!io.interactive) shown();
  if (target === undefined) io.out(`${cards.length} in the queue (questions first, then failures, then ready versions)\n`);
  for (const [i, card] of cards.entries()) {
    if (i > 0) io.out("");
    io.out(formatVerdictCard(card).join("\n"));
    if (io.interactive) recordShown(ctx, [card.deliverable && { worker: card.worker, ...card.deliverable }], io.parent ? "pi" : "cli");
    if (web) io.out(`  in the browser: ${webCardUrl(web, card.worker, card.deliverable?.version)}`);
    if (!io.interactive) continue;
    const left = cards.length - i - 1;
    const choice = await io.select(`${card.worker}: what now?${left > 0 ? ` (${left} more in the queue)` : ""}`, [...card.actions, "skip", "stop"]);
    if (choice === undefined || choice === "stop") return;
    const move = card.moves[card.actions.indexOf(choice)];
    if (!move) continue; // skip
    try {
      await act(io, card, move);
    } catch (error) {
      io.err(`docket: ${(error as Error).message}`);
    }
  }
}

async function act(io: Io, card: VerdictCard, move: CardMove): Promise<void> {
  const review = await import("../../../engine/review/judge.js");
  const ctx = engine();
  const combined = card.detail.kind === "combined";
  const bound = combined
    ? { target: card.deliverable!.ref, expectSha256: card.detail.sha256 ?? undefined }
    : { target: card.worker, expectVersion: card.deliverable?.version, expectSha256: card.detail.sha256 ?? undefined };
  const v = card.deliverable ? ` v${card.deliverable.version}` : "";
  const say = (r: { decision: { id: string; verb: string }; notes: string[] }) => io.out([`${r.decision.id} ${r.decision.verb}`, ...r.notes.map((n) => `  ${n}`)].join("\n"));
  switch (move.verb) {
    case "approve":
      return say(review.approve(ctx, bound));
    case "reject":
      return say(review.reject(ctx, { ...bound, note: (await io.input(`Why reject ${card.worker}${v}? (optional; ${card.worker} is not told) `)) || undefined }));
    case "revise": {
      const note = await io.input(`What should ${card.worker} change in${v || " its work"}? (sent to ${card.worker}; its next done becomes the next version) `);
      if (!note) throw refusal("revise-cancelled", "no note given; nothing sent");
      return say(review.revise(ctx, { ...bound, note }));
    }
    case "answer": {
      const q = card.detail.questions[0]!;
      const picked = q.options.length > 0 ? await io.select(`${q.id}: ${q.text}`, [...q.options, "something else"]) : "something else";
      if (picked === undefined) return;
      const text = picked === "something else" ? await io.input(`Your answer to ${card.worker}'s question ${q.id}: ${q.text} `) : picked;
      if (!text) throw refusal("answer-cancelled", "no answer given; nothing sent");
      return say(review.answer(ctx, { worker: card.worker, question: q.id, text }));
    }
    case "promote": {
      const { previewPromotion, promote } = await import("../../../engine/review/promote.js");
      const input = { ...bound, approve: Boolean(move.withApproval) };
      const plan = previewPromotion(ctx, input);
      if (plan.needsConfirmation) {
        io.err(plan.warnings.map((w) => `  ⚠ ${w.text}`).join("\n"));
        if (!(await io.confirm("Promote despite these warnings?"))) return;
      }
      const r = promote(ctx, { ...input, yes: true });
      return io.out([`${r.decision.id} promote ${r.decision.deliverable?.ref}`, ...r.files.map((f) => `  ${quotePath(f)}`), ...r.notes.map((n) => `  ${n}`)].join("\n"));
    }
    case "discard":
      if (!(await io.confirm(`Drop ${card.worker}'s live changes and reset its workspace? This cannot be undone.`))) return;
      return say(review.discard(ctx, { worker: card.worker }));
    case "use": {
      if (move.mode === "parent") {
        const { useForParent } = await import("../../../engine/handoff/use.js");
        return io.out(useForParent(ctx, { target: card.deliverable!.ref }).notes.join("\n"));
      }
      const implement = move.mode === "implement";
      const { useForWorker } = await import("../../../engine/handoff/use.js");
      const task = await io.input(implement ? `Task for the implementer of ${card.deliverable!.ref}? (empty: the plan's goal) ` : `Task for a new worker from ${card.deliverable!.ref}? (empty: work from the source) `);
      const question = implement ? `Start an implementer on the approved plan ${card.deliverable!.ref}?` : `Start a fresh worker with reviewed input ${card.deliverable!.ref}?`;
      if (!(await io.confirm(question))) return;
      const r = await useForWorker(ctx, { target: card.deliverable!.ref, task: task || undefined, implement, yes: true, interactive: true, ...(io.parent ? { parent: io.parent } : {}) });
      return io.out(r.notes.join("\n"));
    }
    case "combine": {
      const { combineChangeSets } = await import("../../../engine/review/combine.js");
      const r = combineChangeSets(ctx, { sources: [card.deliverable!.ref, move.peer!] });
      return io.out([`${r.outcome === "combined" ? r.deliverable.ref : r.outcome === "conflicts" ? r.combination : r.message} · ${r.summary}`, ...r.notes.map((n) => `  ${n}`)].join("\n"));
    }
    default:
      io.out(`run: docket ${move.verb} ${move.verb === "save" ? `--from ${card.deliverable?.ref ?? card.worker}` : card.worker}`);
  }
}
