// A stored record (`deliverable:<id>:<v>`, an id, `last`, `d<N>`) as a Reviewable: never judged again — it carries the
// approval it was saved with, its bytes pinned by the ledger — and promoted without a workspace to reset
// (docs/decisions/deliverable-store.md).

import { versionNamedByRef, type StoreName } from "../../domain/deliverables/refs.js";
import { refusal, validationError, type DocketError } from "../../domain/errors.js";
import { verifyContent } from "../../domain/review/content-binding.js";
import type { EngineContext } from "../context.js";
import { storedForUse } from "../handoff/store-use.js";
import type { Reviewable, ReviewVerb } from "./reviewable-shape.js";
import type { TargetGuards } from "./target.js";
import { parentChangeWarnings } from "./warnings.js";

/** `name`: what the store resolves (`deliverable:<id>:<v>`, an id, `last`, `d<N>`), as the command parsed it. */
export function storedReviewable(
  ctx: EngineContext,
  name: StoreName,
  input: TargetGuards,
  verb: ReviewVerb,
): Reviewable {
  // A legacy checkpoint bundle carries no change set: a diff says so, every other verb refuses it as not usable.
  const legacy = verb === "diff" ? legacyNoPatch : undefined;
  const s = storedForUse(ctx, name, legacy);
  if (input.expectSha256 !== undefined)
    verifyContent({ ref: s.ref, file: s.path, expected: input.expectSha256, actual: s.sha256 });
  const cs = s.record.changeSet;
  const source = s.provenance.sourceWorker;
  const root = ctx.projectRoot();
  const judged = refusal(
    "stored-not-judged",
    `${s.ref} is a stored record: it carries the approval it was saved with and is not judged again; nothing changed`,
    `judge the version it came from, or promote it with \`docket promote ${s.ref}\``,
  );
  const approveFlag = validationError(
    "approve-stored",
    "--approve judges a worker's version; a stored record already carries its approval",
    "promote it without --approve",
  );
  // Promote, diff and use take it; it is never judged, and names its version itself.
  const refused: Partial<Record<Parameters<Reviewable["refuses"]>[0], DocketError>> = {
    approve: judged,
    reject: judged,
    revise: judged,
    "--version": versionNamedByRef("stored"),
    "--approve": approveFlag,
  };
  return {
    kind: "stored",
    subject: source ?? "parent",
    author: source ?? null,
    pointer: { id: s.record.id, version: s.record.version, ref: s.ref },
    path: s.path,
    sha256: s.sha256,
    changeSet: cs,
    evidenceRefs: [s.ref, ...(cs?.ref ? [cs.ref] : [])],
    projectRoot: root,
    summary: s.record.summary,
    body: s.body,
    outcome: s.record.outcome,
    refuses: (v) => refused[v],
    shown: () => [],
    assertStill: () => undefined,
    settle: () => undefined,
    after: () => [],
    promotion: {
      approval: { kind: "carried", decisionId: s.approval.decisionId },
      instead: `hand it on instead: \`docket use ${s.ref} --parent\``,
      assertPromotable: () => undefined, // its bytes were checked against the ledger's pin when read
      warnings: () => {
        const files = (cs?.files ?? []).map((f) => f.path);
        const { warnings } = parentChangeWarnings(
          ctx,
          root,
          { base: cs?.base || null, baseHead: null },
          files,
          source ?? s.ref,
        );
        return { warnings, needsConfirmation: warnings.length > 0 };
      },
      earlierApproved: () => [],
      credited: source ? [source] : [],
      notes: [`approved by ${s.approval.decisionId} (carried by the stored record)`],
      settle: () => undefined,
      reset: () => ({
        workspace: "stored",
        notes: ["a stored record has no workspace of its own; no worker workspace was touched"],
      }),
      preface: [],
    },
    use: {
      // Its approval travels inside the record, its bytes verified against the ledger's pin when read.
      authorize: () => ({ approvingDecisionId: s.approval.decisionId, approvedAt: s.approval.decidedAt }),
      chipWorker: null,
      from: `stored deliverable ${s.record.id}`,
      ...(source ? { sourceWorker: source } : {}),
      sourceKind: "stored",
    },
  };
}

function legacyNoPatch(ref: string): Error {
  return refusal(
    "legacy-no-patch",
    `${ref} is a legacy checkpoint bundle; it carries no change set`,
    `read it with \`docket preview ${ref}\``,
  );
}
