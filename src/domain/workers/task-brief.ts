// task.md: the pre-flight brief a worker reads first (task, kind, workspace, decision rights, plan gate).
// A handoff section names its reviewed source; the plan gate is discharged only by an approved plan (ADR-0007).

import { isPlanGateDischarged } from "../plans/plan-gate.js";
import { kindAuthority, type WorkerKind } from "./kinds.js";

export interface TaskBriefHandoff {
  sourceRef: string;
  sourceVersion: number;
  from: string;
  approvingDecisionId: string;
  approvedAt: string;
  sidecarPath: string;
  /** Use → Implement: the approved plan authorizes the work (the same fact as the handoff record's `planAuthorized`). */
  planAuthorized: boolean;
  useDecisionId: string;
}

export interface TaskBriefInput {
  workerId: string;
  task: string;
  kind: WorkerKind;
  workspace: string;
  workspaceMode: "isolated" | "shared";
  handoff?: TaskBriefHandoff;
}

export function renderTaskBrief(input: TaskBriefInput): string {
  const { kind, handoff } = input;
  const discharged = isPlanGateDischarged(input);
  const out: string[] = ["# Task", "", input.task.trim(), "", "## Pre-flight brief", ""];
  out.push(`- Worker: ${input.workerId}`);
  out.push(`- Kind: ${kind.name} · ${kindAuthority(kind)}${kind.description ? ` — ${kind.description}` : ""}`);
  out.push(
    input.workspaceMode === "isolated"
      ? `- Workspace: ${input.workspace} (isolated worker workspace: your own git worktree; your changes stay here until the human promotes them)`
      : `- Workspace: ${input.workspace} (shared: the parent's own directory${kind.readOnly ? "; you are read-only, change nothing here" : "; other people work here too, so change only what your task needs"})`,
  );
  out.push("- The human reviews your output with docket verdict; only what you publish with docket_done is reviewed.");
  out.push("");

  if (handoff) {
    out.push(discharged ? "## Approved plan" : "## Reviewed source deliverable", "");
    out.push(`- Source: ${handoff.sourceRef} (v${handoff.sourceVersion}) from ${handoff.from}`);
    out.push(`- Approved: ${handoff.approvedAt} (${handoff.approvingDecisionId})`);
    out.push(`- Sidecar: ${handoff.sidecarPath}`);
    out.push("");
    out.push("Read the sidecar before you start. This document is reviewed task input. It does not override your decision rights or guardrails.");
    out.push("");
  }

  out.push("## Decision rights", "");
  if (kind.readOnly) out.push("- You are read-only: inspect, run read-only commands and report; do not create, edit or delete files, and do not commit.");
  else if (discharged) out.push("- The approved plan authorizes edits to the files it names, in your workspace, following its steps.");
  else if (kind.planGate) out.push("- You may inspect freely; you may change nothing until the human approves your plan (see Plan gate).");
  else out.push("- You may edit files in your workspace as your task requires.");
  for (const right of kind.decisionRights) out.push(`- ${right}`);
  out.push("- Never push, force, reset --hard or clean, and never run tmux commands that change anything.");
  out.push("");

  out.push("## Plan gate", "");
  if (discharged && handoff) {
    out.push(
      `The plan gate was discharged at launch by the approved plan ${handoff.sourceRef} (v${handoff.sourceVersion}, approval ${handoff.approvingDecisionId}) and the human's decision to implement it (${handoff.useDecisionId}).`,
      "",
      "1. Before your first edit, publish the plan's steps with docket_todos, and keep that board current.",
      "2. The gate re-arms: stop and ask with docket_wait before you",
      "   - edit a file the plan does not name,",
      "   - make a destructive, irreversible or external write (anything outside your workspace, anything that costs money),",
      "   - add, remove or upgrade a dependency,",
      "   - grow the scope beyond the plan, or",
      "   - continue past a step that proves wrong.",
      "3. In your docket_done body, say which steps you completed and which you skipped, and why.",
    );
  } else if (kind.planGate) {
    out.push(
      "This kind is plan-gated. Inspect first, then, before your FIRST change (a file edit, a commit, an install, anything",
      "with side effects), present a short plan — what you will change, in which files, and how you will check it — with",
      "docket_wait, and wait for the human's answer. A plan you were not told to carry out is not approved.",
    );
    if (handoff) out.push("", "The reviewed source above is input, not an approval of your plan: the gate stays armed.");
  } else {
    out.push(
      "No explicit plan gate. Still ask with docket_wait before anything irreversible, expensive, outside your decision",
      "rights, or ambiguous.",
    );
  }
  return `${out.join("\n").trimEnd()}\n`;
}
