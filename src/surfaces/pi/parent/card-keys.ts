// The verdict card's one-key actions: which key does what on this card, derived from its structured actions (so a
// key exists only when the engine offers the action), and the legend shown under the card.

import type { KeyId } from "@mariozechner/pi-tui";
import { keyOf, soloKeys, type CardAction, type CardVerb } from "../../../domain/review/card-actions.js";
import type { ReviewView } from "../../../engine/review/review-view.js";

export type CardIntent =
  | { kind: "close" }
  | { kind: "next" }
  | { kind: "prev" }
  | { kind: "diff" }
  /** Approve, promote, revise, reject, combine, save, respawn, discard: one structured action bound to the card. */
  | { kind: "act"; action: CardAction }
  /** Use → Implement / Worker / Parent: the human picks the mode. */
  | { kind: "use"; actions: CardAction[] }
  /** A worker-offered option of the oldest open question, picked by its number. */
  | { kind: "answer"; question: string; text: string }
  /** Free text: the answer to the oldest open question, or a message through the inbox. */
  | { kind: "say"; question: string | null };

export interface CardKey {
  /** A pi-tui key id (`a`, `shift+n`, `1`). */
  key: KeyId;
  label: string;
  intent: CardIntent;
}

const SOLO = soloKeys() as Record<string, { key: KeyId; label: string }>;
const key = (verb: CardVerb): KeyId => keyOf(verb) as KeyId;

/** The keys of this card in legend order: judgments first, then hand-offs, reading, navigation. */
export function cardKeys(view: ReviewView, options: { queued: boolean }): CardKey[] {
  const keys: CardKey[] = [];
  const by = (verb: string) => view.actions.filter((a) => a.verb === verb);
  const approve = by("approve")[0];
  if (approve) keys.push({ ...SOLO.approve!, intent: { kind: "act", action: approve } });
  const promote = by("promote")[0];
  if (promote)
    keys.push({
      key: key("promote"),
      label: promote.withApproval ? "approve + promote" : "promote",
      intent: { kind: "act", action: promote },
    });
  const drafts = view.card.comments.drafts.length;
  for (const verb of ["revise", "reject"]) {
    const a = by(verb)[0];
    const label =
      verb === "revise" && drafts > 0
        ? `request changes (${drafts} comment${drafts === 1 ? "" : "s"})`
        : SOLO[verb]!.label;
    if (a) keys.push({ ...SOLO[verb]!, label, intent: { kind: "act", action: a } });
  }
  const uses = by("use");
  if (uses.length > 0)
    keys.push({
      key: key("use"),
      label: `use → ${uses.map((u) => u.mode).join("/")}`,
      intent: { kind: "use", actions: uses },
    });
  const q = view.card.detail.questions[0];
  if (q && view.isCurrent) {
    q.options.slice(0, 9).forEach((text, i) =>
      keys.push({
        key: String(i + 1) as KeyId,
        label: i === 0 ? `1–${Math.min(9, q.options.length)} answer` : "",
        intent: { kind: "answer", question: q.id, text },
      }),
    );
    keys.push({ key: "t", label: "type an answer", intent: { kind: "say", question: q.id } });
  } else keys.push({ key: "t", label: "tell", intent: { kind: "say", question: null } });
  const combine = by("combine")[0];
  if (combine)
    keys.push({ key: key("combine"), label: `combine with ${combine.peer}`, intent: { kind: "act", action: combine } });
  for (const verb of ["save", "respawn", "discard"]) {
    const a = by(verb)[0];
    if (a) keys.push({ ...SOLO[verb]!, intent: { kind: "act", action: a } });
  }
  if (view.files.length > 0) keys.push({ key: "d", label: "diff", intent: { kind: "diff" } });
  if (options.queued) {
    keys.push(
      { key: "n", label: "next", intent: { kind: "next" } },
      { key: "shift+n", label: "previous", intent: { kind: "prev" } },
    );
  }
  return keys;
}

/** `shift+n` → `N`, `shift+r` → `R`: how a key is written in the legend. */
export function keyLabel(key: string): string {
  const m = /^shift\+([a-z])$/.exec(key);
  return m ? m[1]!.toUpperCase() : key;
}

/** The legend: `a approve · p promote · …`; options of a question are one entry. */
export function formatLegend(keys: readonly CardKey[]): string[] {
  return keys
    .filter((k) => k.label !== "")
    .map((k) => `${k.intent.kind === "answer" ? "" : `${keyLabel(k.key)} `}${k.label}`);
}
