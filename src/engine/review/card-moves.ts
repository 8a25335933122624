// The one table of what a card offers: the moves a version's judgment, promotion and patch allow, kept to the moves its
// kind takes (a combined version is approved, promoted or rejected; nothing else), for every kind of card alike.

import { CARD_VERB_NAMES, distinctMoves, type CardMove, type CardVerb } from "../../domain/review/card-actions.js";

/** Per kind: the moves a card of an open version may offer, and those still offered once its patch landed. */
export const KIND_OFFERS = {
  worker: { open: CARD_VERB_NAMES, landed: CARD_VERB_NAMES },
  combined: { open: ["approve", "promote", "reject"], landed: [] },
} as const satisfies Record<string, { open: readonly CardVerb[]; landed: readonly CardVerb[] }>;

export type OfferKind = keyof typeof KIND_OFFERS;

/** What the card knows of its subject and version when it chooses its moves. */
export interface MoveFacts {
  kind: OfferKind;
  /** A version to judge exists (and could be read). */
  hasVersion: boolean;
  approved: boolean;
  promoted: boolean;
  /** The version carries a frozen patch. */
  patch: boolean;
  /** An approved proposal without a patch (Implement is offered first, docs/decisions/plans.md). */
  planLike: boolean;
  questions: number;
  failed: boolean;
  /** The subject has a workspace of its own (discard drops its live changes). */
  isolated: boolean;
}

const move = (verb: CardVerb, extra: Omit<CardMove, "verb"> = {}): CardMove => ({ verb, ...extra });

export function cardMoves(f: MoveFacts): CardMove[] {
  const out: CardMove[] = [];
  if (f.questions > 0) out.push(move("answer"), move("tell"));
  if (f.hasVersion && !f.approved) {
    out.push(
      move("approve"),
      ...(f.patch ? [move("promote", { withApproval: true })] : []),
      move("revise"),
      move("reject"),
    );
  } else if (f.hasVersion) {
    out.push(
      ...(f.patch && !f.promoted ? [move("promote")] : []),
      ...(!f.patch && f.planLike ? [move("use", { mode: "implement" })] : []),
      move("use", { mode: "parent" }),
      move("use", { mode: "worker" }),
      move("save"),
      move("revise"),
      move("reject"),
    );
  }
  if (f.failed) out.push(move("respawn"));
  if (f.isolated && !f.promoted) out.push(move("discard"));
  const offered: readonly CardVerb[] = f.promoted ? KIND_OFFERS[f.kind].landed : KIND_OFFERS[f.kind].open;
  return distinctMoves(out.filter((m) => offered.includes(m.verb)));
}
