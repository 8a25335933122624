// What a verdict card offers, as data: which verb, with which mode, on which exact version, and the same action
// on the command line. The `--json` contract's action strings and the web page's buttons are both read from it.

/**
 * The one declaration of card verbs, in offer order. `subject`: what the command line names (the worker, or the exact
 * version); `args`: what follows a worker; `key`/`label`: pi's one-key action, where it has one of its own; `completes`:
 * what pi's command line completes after the verb (null: nothing).
 */
export const CARD_VERBS = {
  approve: { subject: "ref", key: "a", label: "approve", completes: "ref" },
  reject: { subject: "ref", key: "x", label: "reject", completes: "ref" },
  revise: { subject: "ref", key: "r", label: "revise", completes: "ref" },
  answer: { subject: "worker", args: " <text>", completes: "worker" },
  tell: { subject: "worker", args: " <text>", completes: "worker" },
  promote: { subject: "ref", key: "p", completes: "ref" },
  discard: { subject: "worker", args: "", key: "shift+d", label: "discard", completes: "worker" },
  use: { subject: "ref", key: "u", completes: "ref" },
  save: { subject: "ref", key: "s", label: "save", completes: null },
  respawn: { subject: "worker", args: "", key: "shift+r", label: "respawn", completes: "worker" },
  combine: { subject: "ref", key: "c", completes: null },
} as const satisfies Record<string, CardVerbSpec>;

interface CardVerbSpec {
  subject: "worker" | "ref";
  args?: string;
  key?: string;
  label?: string;
  completes: "worker" | "ref" | null;
}

export type CardVerb = keyof typeof CARD_VERBS;
export const CARD_VERB_NAMES = Object.keys(CARD_VERBS) as CardVerb[];
const spec = (verb: CardVerb): CardVerbSpec => CARD_VERBS[verb];

/** Card verbs pi completes a worker id (`"worker"`) or also an exact ref (`"ref"`) after. */
export const cardVerbsCompleting = (what: "worker" | "ref"): CardVerb[] =>
  CARD_VERB_NAMES.filter((v) => spec(v).completes === what || (what === "worker" && spec(v).completes === "ref"));

/** The card verbs with a one-key action of their own in pi, and its key and label. */
export function soloKeys(): Partial<Record<CardVerb, { key: string; label: string }>> {
  return Object.fromEntries(
    CARD_VERB_NAMES.flatMap((v) => {
      const s = spec(v);
      return s.key && s.label ? [[v, { key: s.key, label: s.label }]] : [];
    }),
  );
}

/** pi's key of a verb. */
export const keyOf = (verb: CardVerb): string => spec(verb).key ?? "";

/** An action the card offers, before it is bound to a worker and version. */
export interface CardMove {
  verb: CardVerb;
  /** Use → Parent / Worker / Implement. */
  mode?: "parent" | "worker" | "implement";
  /** Promote records the approval together with the promotion. */
  withApproval?: boolean;
  /** Combine: the other worker whose current version this one is merged with. */
  peer?: string;
}

export interface CardAction extends CardMove {
  worker: string;
  /** The exact version the action is bound to; null for a worker without one. */
  ref: string | null;
  version: number | null;
  /** The same action on the command line. */
  cli: string;
}

/** The move as the card's `actions` list names it (the `--json` contract): `promote --approve`, `use --implement`, `approve`. */
export function moveText(m: CardMove): string {
  if (m.verb === "use") return `use --${m.mode}`;
  if (m.verb === "promote" && m.withApproval) return "promote --approve";
  if (m.verb === "combine") return `combine ${m.peer}`;
  return m.verb;
}

/** Each move once, in first-offered order. */
export function distinctMoves(moves: readonly CardMove[]): CardMove[] {
  const seen = new Set<string>();
  return moves.filter((m) => !seen.has(moveText(m)) && Boolean(seen.add(moveText(m))));
}

/** A move bound to the card's worker and exact version, with its command line. */
export function bindMove(m: CardMove, at: { worker: string; ref: string | null; version: number | null }): CardAction {
  const subject = at.ref ?? at.worker;
  const s = spec(m.verb);
  const cli =
    s.subject === "worker"
      ? `docket ${m.verb} ${at.worker}${s.args ?? ""}`
      : m.verb === "revise"
        ? `docket revise ${subject} <note>`
        : m.verb === "save"
          ? `docket save --from ${subject}`
          : m.verb === "use"
            ? `docket use ${subject} --${m.mode}`
            : m.verb === "promote" && m.withApproval
              ? `docket promote ${subject} --approve`
              : m.verb === "combine"
                ? `docket combine ${subject} ${m.peer}`
                : `docket ${m.verb} ${subject}`;
  return { ...m, ...at, cli };
}
