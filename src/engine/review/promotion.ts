// What a promotion returns and what its preview shows, for a worker version, a combined version or a stored record:
// the shapes only, so the kinds' hooks (reviewable-*.ts) depend on them and not on promote.ts, which calls the hooks.

import type { DecisionView } from "./target.js";
import type { ReviewWarning } from "./warnings.js";

export type WorkspaceOutcome = "reset" | "kept-later-edits" | "shared" | "missing" | "stored" | "combined";

export interface PromoteResult {
  decision: DecisionView;
  approval: DecisionView | null;
  files: string[];
  workspace: WorkspaceOutcome;
  notes: string[];
}

/** What a promotion would apply and what needs confirmation, for a worker version or a stored record alike. */
export interface PromotionPreview {
  ref: string;
  files: string[];
  warnings: ReviewWarning[];
  needsConfirmation: boolean;
}
