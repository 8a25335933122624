// The verdict card's actions as structured data beside the CLI strings (which stay the `--json` contract):
// which verb, on which exact version, with which mode, and the CLI line that does the same thing.

import type { VerdictCard } from "./verdict.js";

export type CardVerb = "approve" | "reject" | "revise" | "answer" | "tell" | "promote" | "discard" | "use" | "save" | "respawn" | "combine";

export interface CardAction {
  verb: CardVerb;
  /** Use → Parent / Worker / Implement. */
  mode?: "parent" | "worker" | "implement";
  /** Combine: the other worker whose current version this one is merged with. */
  peer?: string;
  /** Promote records the approval together with the promotion. */
  withApproval?: boolean;
  worker: string;
  /** The exact version the action is bound to; null for a worker without one. */
  ref: string | null;
  version: number | null;
  /** The same action on the command line. */
  cli: string;
}

const WORKER_LEVEL: Record<string, string> = { answer: "<text>", tell: "<text>", discard: "", respawn: "" };

/** Maps each of the card's action strings to a structured action; an unknown string is dropped (a newer engine). */
export function cardActions(card: VerdictCard): CardAction[] {
  const ref = card.deliverable?.ref ?? null;
  const version = card.deliverable?.version ?? null;
  const out: CardAction[] = [];
  for (const text of card.actions) {
    const [word, flag] = text.split(" ") as [string, string | undefined];
    const base = { worker: card.worker, ref, version };
    if (word in WORKER_LEVEL) {
      out.push({ ...base, verb: word as CardVerb, cli: `docket ${word} ${card.worker}${WORKER_LEVEL[word] ? ` ${WORKER_LEVEL[word]}` : ""}` });
      continue;
    }
    const subject = ref ?? card.worker;
    if (word === "approve" || word === "reject") out.push({ ...base, verb: word, cli: `docket ${word} ${subject}` });
    else if (word === "revise") out.push({ ...base, verb: "revise", cli: `docket revise ${subject} <note>` });
    else if (word === "promote") out.push({ ...base, verb: "promote", ...(flag === "--approve" ? { withApproval: true } : {}), cli: `docket promote ${subject}${flag ? ` ${flag}` : ""}` });
    else if (word === "use" && (flag === "--parent" || flag === "--worker" || flag === "--implement")) {
      out.push({ ...base, verb: "use", mode: flag.slice(2) as CardAction["mode"], cli: `docket use ${subject} ${flag}` });
    } else if (word === "save") out.push({ ...base, verb: "save", cli: `docket save --from ${subject}` });
    else if (word === "combine" && flag) out.push({ ...base, verb: "combine", peer: flag, cli: `docket combine ${subject} ${flag}` });
  }
  return out;
}
