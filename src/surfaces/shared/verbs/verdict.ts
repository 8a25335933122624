// `docket verdict`: prints the card (or the queue of cards); on a terminal, offers the card's actions as a numbered
// menu. Every action goes through the same request and dispatcher as the review page and pi, bound to the card shown.

import { moveText, type CardAction } from "../../../domain/review/card-actions.js";
import type { ReviewView } from "../../../engine/review/review-view.js";
import type { VerdictCard } from "../../../engine/review/verdict.js";
import { requestForAction, type Prompter } from "../card-request.js";
import type { Io } from "../io.js";
import type { EngineOpener } from "../session.js";

const contract = (c: VerdictCard) => ({
  worker: c.worker,
  state: c.state,
  deliverable: c.deliverable,
  approved: c.approved,
  warnings: c.warnings,
  actions: c.actions,
  planCoverage: c.planCoverage,
  comments: c.comments,
  spend: c.spend,
  network: c.detail.network,
});

export async function runVerdict(
  io: Io,
  engine: EngineOpener,
  target: string | undefined,
  version?: number,
): Promise<void> {
  const { formatVerdictCard, verdictCard, verdictQueue } = await import("../../../engine/review/verdict.js");
  const ctx = engine();
  const cards = target === undefined ? verdictQueue(ctx) : [verdictCard(ctx, target, { version })];
  const { recordShown } = await import("../../../engine/review/shown.js");
  const shown = () =>
    recordShown(
      ctx,
      cards.map((c) => c.deliverable && { worker: c.worker, ...c.deliverable }),
      io.parent ? "pi" : "cli",
    );
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
  const { reviewView } = await import("../../../engine/review/review-view.js"); // the menu's binding, not --json's
  const web = await findWebServer(ctx);
  if (!io.interactive) shown();
  if (target === undefined)
    io.out(`${cards.length} in the queue (questions first, then failures, then ready versions)\n`);
  for (const [i, queued] of cards.entries()) {
    if (i > 0) io.out("");
    // On a terminal the card is read as a review view: its actions are bound to exactly what is printed here.
    const view = io.interactive ? reviewView(ctx, queued.deliverable?.ref ?? queued.worker) : undefined;
    const card = view?.card ?? queued;
    io.out(formatVerdictCard(card).join("\n"));
    if (view)
      recordShown(ctx, [card.deliverable && { worker: card.worker, ...card.deliverable }], io.parent ? "pi" : "cli");
    if (web) io.out(`  in the browser: ${webCardUrl(web, card.worker, card.deliverable?.version)}`);
    if (!view) continue;
    const left = cards.length - i - 1;
    const names = view.actions.map(moveText);
    const choice = await io.select(`${card.worker}: what now?${left > 0 ? ` (${left} more in the queue)` : ""}`, [
      ...names,
      "skip",
      "stop",
    ]);
    if (choice === undefined || choice === "stop") return;
    const action = view.actions[names.indexOf(choice)];
    if (!action) continue; // skip
    try {
      await act(io, engine, view, action);
    } catch (error) {
      io.err(`docket: ${(error as Error).message}`);
    }
  }
}

/** The menu's choice through the same request and dispatcher as the review page and pi's card. */
async function act(io: Io, engine: EngineOpener, view: ReviewView, action: CardAction): Promise<void> {
  const prompter: Prompter = {
    input: (q) => io.input(`${q} `),
    confirm: (_title, q) => io.confirm(q),
    select: (title, options) => io.select(title, options),
  };
  const request = await requestForAction(prompter, view, action, engine);
  if (!request) return io.out("nothing done");
  const { runAction } = await import("../../../engine/review/card-act.js");
  const r = await runAction(engine(), request, io.parent ? { parent: io.parent } : {});
  io.out(r.lines.join("\n"));
}
