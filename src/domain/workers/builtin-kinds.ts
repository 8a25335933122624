// The five kinds Docket ships: default, scout, patcher, architect, implementer (docs/decisions/spawn-policy.md,
// docs/decisions/plans.md). Intent and authority only: none of them says anything about model, thinking, context or
// workspace.

import type { WorkerKind } from "./kinds.js";

const builtin = (k: Omit<WorkerKind, "source" | "legacy" | "warnings">): WorkerKind =>
  Object.freeze({
    ...k,
    decisionRights: Object.freeze([...k.decisionRights]) as string[],
    source: "builtin",
    legacy: {},
    warnings: [],
  });

const PLAN_SHAPE = [
  "Write the plan in this shape, in the same response that calls docket_done:",
  "",
  "## Goal",
  "One or two sentences: what will be true when the work is done.",
  "## Constraints",
  "What must not change, what must stay compatible, limits you were given.",
  "## Steps",
  "1. A concrete step, small enough to review.",
  "   files: src/path/one.ts, test/path/one.test.ts",
  "2. The next step, with its own files: line.",
  "## Verification",
  "The commands and checks that prove the work is right.",
  "## Risks",
  "What could go wrong, and what you would do about it.",
].join("\n");

export const BUILTIN_KINDS: readonly WorkerKind[] = Object.freeze([
  builtin({
    name: "default",
    description: "General work: inspect freely, then ask before the first change.",
    readOnly: false,
    planGate: true,
    decisionRights: [],
    body: "",
  }),
  builtin({
    name: "scout",
    description: "Fast read-only reconnaissance: find the facts, cite where they are, change nothing.",
    readOnly: true,
    planGate: false,
    decisionRights: ["Read any file in the workspace and run read-only commands (search, list, git log/show/diff)."],
    maxArtifacts: 80,
    maxMinutes: 2,
    body: [
      "Aim for outcome `findings`. Each finding names the file and line (or the command) that shows it.",
      "If the facts are not there, say exactly where you looked; do not guess.",
    ].join("\n"),
  }),
  builtin({
    name: "patcher",
    description: "A small, focused change: propose it, wait for approval, make it, prove it.",
    readOnly: false,
    planGate: true,
    decisionRights: [
      "After the human approves your plan: edit the files it names in your workspace.",
      "Run local, non-destructive checks: builds, tests, linters.",
      "Commit in your own workspace; never push.",
    ],
    body: [
      "Keep the change as small as the task allows. Finish with outcome `completed` and typed evidence",
      "(the test command and its result, the commit), or with `proposal` when you stopped at a plan.",
    ].join("\n"),
  }),
  builtin({
    name: "architect",
    description: "Read-only planning: study the code and publish a reviewable plan as a proposal.",
    readOnly: true,
    planGate: false,
    decisionRights: ["Read any file in the workspace and run read-only commands to understand the code."],
    maxArtifacts: 120,
    maxMinutes: 15,
    body: [
      "Publish your plan ONLY through `docket_done` with `outcome: proposal`. Never present a plan through",
      "`docket_wait`: a question is not frozen, cannot be approved and cannot be handed to an implementer.",
      "Only the text of the response that calls `docket_done` is frozen, so write the WHOLE plan in that",
      "same response. Ask with `docket_wait` only for facts you cannot find yourself.",
      "",
      PLAN_SHAPE,
      "",
      "Name every file a step will touch on its `files:` line; an implementer may edit only those files.",
    ].join("\n"),
  }),
  builtin({
    name: "implementer",
    description: "Carries out an approved plan, step by step, within the files the plan names.",
    readOnly: false,
    planGate: true,
    decisionRights: [
      "Edit only the files the approved plan names on its files: lines.",
      "Run local, non-destructive checks: builds, tests, linters.",
      "Commit in your own workspace; never push.",
    ],
    body: [
      "Before your first edit, publish the plan's steps with `docket_todos` and keep that board current.",
      "Stop and ask with `docket_wait` before you leave the plan: a file it does not name, a new dependency,",
      "a larger scope, or a step that turns out to be wrong.",
      "In your `docket_done` body, say which steps you completed and which you skipped, and why.",
    ].join("\n"),
  }),
]);
