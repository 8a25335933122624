// What a promotion returns, for a worker version, a combined version or a stored record:
// the shapes only, so the kinds' hooks (reviewable-*.ts) depend on them and not on promote.ts, which calls the hooks.

import type { DecisionView } from "./target.js";

export type WorkspaceOutcome = "reset" | "kept-later-edits" | "shared" | "missing" | "stored" | "combined";

export interface PromoteResult {
  decision: DecisionView;
  approval: DecisionView | null;
  files: string[];
  workspace: WorkspaceOutcome;
  notes: string[];
}
