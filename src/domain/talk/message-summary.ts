// What one message to a worker was, in a line `docket show` can print beside its delivery state: its kind and the
// first line of its words, and for a review note the revise decision that sent it.

export interface MessageFacts {
  kind: string;
  body: string;
  question: string | null;
  /** The revise decision that queued this review note, when one did. */
  decision?: { id: string; note: string | null };
}

const MAX = 60;

/** The first non-blank line, cut to MAX characters, quoted. */
function firstLine(text: string): string {
  const line =
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "";
  return JSON.stringify(line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line);
}

export function describeMessage(m: MessageFacts): string {
  switch (m.kind) {
    case "review_note":
      if (m.decision)
        return `revise ${m.decision.id}: ${m.decision.note === null ? "draft comments only" : firstLine(m.decision.note)}`;
      return `review note: ${firstLine(m.body)}`;
    case "answer":
      return `answer${m.question ? ` ${m.question}` : ""}: ${firstLine(m.body)}`;
    case "reply_review":
      return `review reply: ${firstLine(m.body)}`;
    default:
      return `${m.kind}: ${firstLine(m.body)}`;
  }
}
