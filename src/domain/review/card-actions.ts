// What a verdict card offers, as data: which verb, with which mode, on which exact version, and the same action
// on the command line. The `--json` contract's action strings and the web page's buttons are both read from it.

export type CardVerb = "approve" | "reject" | "revise" | "answer" | "tell" | "promote" | "discard" | "use" | "save" | "respawn" | "combine";

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

const WORKER_LEVEL: Partial<Record<CardVerb, string>> = { answer: " <text>", tell: " <text>", discard: "", respawn: "" };

/** A move bound to the card's worker and exact version, with its command line. */
export function bindMove(m: CardMove, at: { worker: string; ref: string | null; version: number | null }): CardAction {
  const subject = at.ref ?? at.worker;
  const worker = WORKER_LEVEL[m.verb];
  const cli = worker !== undefined ? `docket ${m.verb} ${at.worker}${worker}`
    : m.verb === "revise" ? `docket revise ${subject} <note>`
    : m.verb === "save" ? `docket save --from ${subject}`
    : m.verb === "use" ? `docket use ${subject} --${m.mode}`
    : m.verb === "promote" && m.withApproval ? `docket promote ${subject} --approve`
    : m.verb === "combine" ? `docket combine ${subject} ${m.peer}`
    : `docket ${m.verb} ${subject}`;
  return { ...m, ...at, cli };
}
