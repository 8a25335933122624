// Items (todos and requests), their states, and the five item operations a report can run.
// Pure: each operation takes the item as data and returns its next state or a refusal (docs/decisions/item-reports.md).

import { refusal } from "../errors.js";
import type { ItemKind } from "../ids.js";

export type ItemState = "open" | "done" | "abandoned" | "closed";

export interface Item {
  id: string;
  kind: ItemKind;
  text: string;
  revision: number;
  state: ItemState;
}

export interface Reply {
  id: string;
  item: string;
  text: string;
  state: "unanswered" | "answered";
}

export type ItemOperation =
  | "done_todo"
  | "close_request"
  | "release_todo"
  | "release_request"
  | "abandon_todo"
  | "abandon_request";

export interface ItemOperationResult {
  state: ItemState;
  /** Text to store as the closing note of a request (abandoned requests are prefixed `Abandoned:`). */
  closingNote?: string;
  /** Reply ids this operation marks answered. */
  answeredReplies: string[];
}

/** Which ledger operation a terminal outcome runs for an item of this kind. */
export function operationFor(kind: ItemKind, outcome: "done" | "released" | "abandoned"): ItemOperation {
  if (kind === "todo")
    return outcome === "done" ? "done_todo" : outcome === "released" ? "release_todo" : "abandon_todo";
  return outcome === "done" ? "close_request" : outcome === "released" ? "release_request" : "abandon_request";
}

/**
 * Runs one item operation. `answers` are the reply ids the report answers; `done_todo` refuses while any
 * human reply stays unanswered, because a todo the human is still talking about is not done.
 */
export function applyItemOperation(
  op: ItemOperation,
  item: Item,
  replies: readonly Reply[],
  report: { body: string; answers: readonly string[] },
): ItemOperationResult {
  if (item.state !== "open") {
    throw refusal("item-not-open", `${item.id} is ${item.state}, not open; nothing to ${op.replace("_", " ")}`);
  }
  const answered = replies.filter((r) => r.state === "unanswered" && report.answers.includes(r.id)).map((r) => r.id);
  switch (op) {
    case "done_todo": {
      const open = replies.filter((r) => r.state === "unanswered" && !report.answers.includes(r.id));
      if (open.length > 0) {
        const ids = open.map((r) => r.id).join(", ");
        throw refusal(
          "unanswered-reply",
          `${item.id} has an unanswered reply (${ids}); answer it in the report before marking the todo done`,
          `add --answers ${open[0]!.id}=<text> to the report`,
        );
      }
      return { state: "done", answeredReplies: answered };
    }
    case "close_request":
      return { state: "closed", closingNote: report.body, answeredReplies: answered };
    case "abandon_request":
      return { state: "closed", closingNote: `Abandoned: ${report.body}`, answeredReplies: answered };
    case "release_todo":
    case "release_request":
      return { state: "open", answeredReplies: answered };
    case "abandon_todo":
      return { state: "abandoned", answeredReplies: answered };
  }
}
