// What needs the human: pending notifications (blocked items, item outcomes, and other use-cases' kinds), each marked
// settled when what it announces was settled since (the same rule the pi parent folds older notices by).
// Read-only listing plus dismissal; the rows themselves are written by the commands they announce.

import { validationError } from "../../domain/errors.js";
import { dismissNotification, listPendingNotifications } from "../../ledger/talk/notifications.js";
import { getReport } from "../../ledger/work/reports.js";
import type { EngineContext } from "../context.js";
import { assertHuman } from "../authority.js";
import { escalateOverdueConsults } from "./consult-lane.js";
import { noticeSettled } from "./parent-feed.js";

export interface AttentionNotification {
  id: string;
  kind: string;
  worker: string | null;
  item: string | null;
  body: string;
  forHuman: string[];
}

export interface AttentionEntry extends AttentionNotification {
  /** What it announces was settled since: its worker deleted, its question answered, its version judged or replaced. */
  settled: boolean;
  /** The report's outcome word, for rendering (not part of the JSON contract). */
  outcome?: string;
}

export function attentionList(ctx: EngineContext): AttentionEntry[] {
  escalateOverdueConsults(ctx);
  return listPendingNotifications(ctx.db).map((n) => ({
    id: n.id,
    kind: n.kind,
    worker: n.worker,
    item: n.item,
    body: n.body,
    forHuman: n.forHuman,
    settled: noticeSettled(ctx, n, n.now),
    ...(n.report ? { outcome: getReport(ctx.db, n.report)?.outcome } : {}),
  }));
}

export function dismissAttention(ctx: EngineContext, ids: readonly string[]): { dismissed: string[] } {
  assertHuman(ctx, "attention dismiss");
  const bad = ids.find((id) => !/^n[1-9][0-9]*$/.test(id));
  if (bad !== undefined)
    throw validationError("bad-notification-id", `"${bad}" is not a notification id; notifications are n<N>`);
  ctx.commands.run("attention.dismiss", { ids }, (tx) => ids.forEach((id) => dismissNotification(tx, id)));
  return { dismissed: [...ids] };
}
