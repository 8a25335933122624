// The words Docket sends a worker about its items: the work envelope and the reply review
// (docs/decisions/item-reports.md). Pure text builders, so the same wording reaches pi workers, command workers and
// tests.

import type { Item } from "./items.js";

export function formatWorkEnvelope(
  dispatch: string,
  items: readonly Pick<Item, "id" | "kind" | "text" | "revision">[],
): string {
  const lines = [
    `Docket dispatch ${dispatch}: ${items.length === 1 ? "1 item is" : `${items.length} items are`} now yours.`,
    ...items.map((i) => `- ${i.id} (${i.kind}, revision ${i.revision}): ${i.text}`),
    "Report each item with exactly one outcome — done, released, abandoned or blocked — and a non-empty explanation.",
    "Say what kind of evidence you have (commit, test, artifact, runtime, note); a passing test is not a restarted service.",
  ];
  return lines.join("\n");
}

export function formatEditReview(item: Pick<Item, "id" | "text" | "revision">): string {
  return [
    `Reply review for ${item.id}: the human edited it; your accepted revision moved to ${item.revision}.`,
    `New text: ${item.text}`,
    "Reconcile your work with it before you report on this item.",
  ].join("\n");
}

export function formatReplyReview(item: Pick<Item, "id" | "revision">, reply: { id: string; text: string }): string {
  return [
    `Reply review for ${item.id}: the human replied (${reply.id}); your accepted revision moved to ${item.revision}.`,
    `Reply: ${reply.text}`,
    `Answer it in your report (answers ${reply.id}=<text>); a todo with an unanswered reply cannot be reported done.`,
  ].join("\n");
}
