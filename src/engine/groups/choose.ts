// `docket choose <exact ref>`: one command approves that exact version of a group's comparison (bound to the bytes the
// comparison showed), records every other candidate's current version as not chosen, and stops the other workers.
// Their versions stay readable and promotable. The windows close after commit (outbox), safe to repeat.

import { deliverableRef, parseDeliverableRef, workerVersionRef } from "../../domain/deliverables/refs.js";
import { refusal, validationError } from "../../domain/errors.js";
import { choiceRefusal } from "../../domain/groups/choice.js";
import { assertNoControlCharacters } from "../../domain/work/message-text.js";
import { getGroup, groupOfWorker, recordChoice } from "../../ledger/groups/groups.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import { hashRequest, type Tx } from "../../ledger/core/runner.js";
import { requireWorker, updateWorker } from "../../ledger/workers/workers.js";
import { assertHuman } from "../authority.js";
import type { EngineContext } from "../context.js";
import { pointerOf } from "../review/deliverables.js";
import { reviewableOf } from "../review/reviewable.js";
import { decisionView, type DecisionView } from "../review/target.js";
import { stopCandidates, stopInLedger } from "./stop-candidates.js";

export interface ChooseInput {
  ref: string;
  /** Why the others were not chosen: recorded on each not-chosen decision. */
  reason?: string;
}

export interface ChooseResult {
  group: string;
  chosen: DecisionView;
  notChosen: { worker: string; ref: string | null; decision: string }[];
  /** The candidates whose agent this choice stopped. */
  stopped: string[];
  notes: string[];
}

export function chooseCandidate(ctx: EngineContext, input: ChooseInput): ChooseResult {
  assertHuman(ctx, "approve");
  const parsed = parseDeliverableRef(input.ref);
  if (!parsed)
    throw validationError(
      "choose-needs-exact-ref",
      `choose takes the exact version you compared, as \`docket compare <group>\` prints it; got ${JSON.stringify(input.ref.trim())}`,
      "e.g. `docket choose worker-deliverable:w2:1`",
    );
  const reason = input.reason?.trim() ? input.reason.trim() : undefined;
  if (reason !== undefined) assertNoControlCharacters(reason, "reason");
  const ref = deliverableRef(parsed.workerId, parsed.version);
  const group = groupOfWorker(ctx.db, parsed.workerId);
  if (!group)
    throw refusal(
      "not-a-candidate",
      `${parsed.workerId} is not a candidate of any group; nothing changed`,
      `judge it on its own: \`docket approve ${ref}\``,
    );
  const r = reviewableOf(ctx, workerVersionRef(parsed.workerId, parsed.version), {}, "approve");
  const request = { group, ref, reason: reason ?? null };
  const out = ctx.commands.run(
    "groups.choose",
    request,
    (tx) => {
      const g = getGroup(tx.db, group)!;
      const rows = g.workers.map((w) => requireWorker(tx.db, w));
      const refused = choiceRefusal({
        group,
        ref,
        worker: parsed.workerId,
        sha256: r.sha256,
        candidates: rows.map((w) => ({ worker: w.id, ref: pointerOf(w)?.ref ?? null })),
        shown: g.shown,
        chosen: g.chosenRef,
      });
      if (refused) throw refused;
      r.assertStill(tx, "approve");
      const chosen = insertDecision(tx, {
        actor: "human",
        verb: "approve",
        worker: r.subject,
        deliverable: r.pointer,
        note: `chosen in ${group}`,
        evidenceRefs: r.evidenceRefs,
        contentSha256: r.sha256,
      });
      r.settle(tx, "approve");
      const others = rows.filter((w) => w.id !== parsed.workerId);
      const notChosen = others.map((w) => notChoose(tx, { group, ref, reason, worker: w.id, shown: g.shown ?? [] }));
      const why = `stopped by Docket: ${group} chose ${ref}; this worker's versions stay reviewable and promotable`;
      const stopped = stopInLedger(
        tx,
        others.map((w) => w.id),
        why,
      );
      recordChoice(tx, group, ref, chosen.id);
      return { group, chosen: decisionView(chosen), notChosen, stopped };
    },
    // The same choice again (a retry after a crash) replays; any other request runs and meets the recorded choice.
    { key: `groups.choose:${hashRequest("groups.choose", request)}` },
  );
  // Also right here: a replay (the retry after a crash) finds the windows its first run may not have closed.
  stopCandidates(ctx, out.result.stopped);
  const notes = [
    `approved ${ref} (${out.result.chosen.id}) as the choice of ${group}`,
    ...out.result.notChosen.map(
      (n) => `${n.worker}: ${n.ref ?? "no version"} recorded as not chosen (${n.decision}); it stays reviewable`,
    ),
    ...(out.result.stopped.length > 0 ? [`stopped ${out.result.stopped.join(", ")}`] : []),
    `next: \`docket promote ${ref}\``,
  ];
  return { ...out.result, notes };
}

function notChoose(
  tx: Tx,
  c: {
    group: string;
    ref: string;
    reason: string | undefined;
    worker: string;
    shown: { worker: string; sha256: string | null }[];
  },
): { worker: string; ref: string | null; decision: string } {
  const row = requireWorker(tx.db, c.worker);
  const pointer = pointerOf(row) ?? null;
  const d = insertDecision(tx, {
    actor: "human",
    verb: "not-chosen",
    worker: c.worker,
    deliverable: pointer,
    note: `${c.group}: ${c.reason ?? `${c.ref} was chosen`}`,
    evidenceRefs: pointer ? [pointer.ref, c.ref] : [c.ref],
    contentSha256: pointer ? (c.shown.find((s) => s.worker === c.worker)?.sha256 ?? null) : null,
  });
  if (pointer) updateWorker(tx, c.worker, { reviewedAt: tx.now });
  return { worker: c.worker, ref: pointer?.ref ?? null, decision: d.id };
}
