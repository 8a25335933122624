// Use: an explicit human action on an approved, exact, CURRENT version (approval re-checked inside the command).
// Parent → the full immutable body queued as a chip; Worker → exactly one fresh worker with a byte-exact
// source-deliverable.md and provenance {sourceRef, approvingDecisionId, useDecisionId}
// (docs/decisions/immutable-deliverables.md).

import { AGENT_TRAITS } from "../../domain/agents/traits.js";
import { assertExactRef } from "../../domain/ids.js";
import { oneLine } from "../../domain/text/fence.js";
import type { SourceHandoff } from "../../domain/deliverables/deliverable.js";
import { refusal, usageError, validationError } from "../../domain/errors.js";
import { dropChip as dropChipRow, insertChip, listChips, queuedChipFor, type Chip } from "../../ledger/talk/chips.js";
import type { DecisionActor } from "../../domain/review/approval.js";
import { confirmationRefused, resolveConfirmation } from "../../domain/review/confirmation.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import type { EngineContext } from "../context.js";
import { decisionView, type DecisionView } from "../review/target.js";
import { resolveReviewable, type Reviewable } from "../review/reviewable.js";
import type { UseHooks } from "../review/reviewable-shape.js";
import { kindRegistry, trustedKindChoice } from "../workers/kinds.js";
import { parsePlan } from "../../domain/plans/plan-contract.js";
import { isPlanLike, resolvePlanGate, type PlanGateState } from "../../domain/plans/plan-gate.js";
import { spawnWorker, type SpawnHandoff, type SpawnInput, type SpawnResult } from "../workers/spawn.js";
import { resolveSpawn } from "../workers/spawn-resolve.js";
import { dispatchableItems } from "../work/dispatch.js";
import { assertHuman } from "../authority.js";

/** What is being used: a worker's exact current version, or a stored record (its approval travels with it). */
const resolveUseSource = (ctx: EngineContext, target: string, version?: number): Reviewable =>
  resolveReviewable(ctx, { target, version }, "use");

/** The use hooks every kind that takes `use` carries (resolveReviewable refused the others). */
const useOf = (source: Reviewable): UseHooks => source.use!;

export interface UseParentResult {
  chip: { id: string; ref: string; state: Chip["state"] };
  decision: DecisionView | null;
  alreadyQueued: boolean;
  notes: string[];
}

/** Use → Parent: queues the full immutable body as a chip for the project's parent session's next prompt. */
export function useForParent(
  ctx: EngineContext,
  input: { target: string; version?: number; actor?: DecisionActor; expectDecision?: string | null },
): UseParentResult {
  assertHuman(ctx, "use");
  const source = resolveUseSource(ctx, input.target, input.version);
  const ref = source.pointer.ref;
  return ctx.commands.run("use.parent", { ref }, (tx) => {
    const auth = useOf(source).authorize(tx, input.expectDecision);
    const existing = queuedChipFor(tx.db, ref, source.projectRoot);
    if (existing) {
      return {
        chip: { id: existing.id, ref: existing.ref, state: existing.state },
        decision: null,
        alreadyQueued: true,
        notes: [`${ref} is already queued as ${existing.id}; nothing new`],
      };
    }
    const decision = insertDecision(tx, {
      actor: input.actor ?? "human",
      verb: "use",
      worker: source.subject,
      deliverable: source.pointer,
      option: "parent",
      note: `approved by ${auth.approvingDecisionId}`,
      evidenceRefs: source.evidenceRefs,
      contentSha256: source.sha256,
    });
    const chip = insertChip(tx, {
      worker: useOf(source).chipWorker,
      ref,
      projectRoot: source.projectRoot,
      body: source.body,
      decision: decision.id,
    });
    return {
      chip: { id: chip.id, ref: chip.ref, state: chip.state },
      decision: decisionView(decision),
      alreadyQueued: false,
      notes: [
        `queued ${ref} as ${chip.id} (${Buffer.byteLength(source.body, "utf8")} bytes) for your pi session's next prompt`,
        "`docket chips` lists queued chips; `docket chips drop <id>` drops one",
      ],
    };
  }).result;
}

export interface UseWorkerInput extends Omit<SpawnInput, "task" | "handoff"> {
  target: string;
  version?: number;
  task?: string;
  actor?: DecisionActor;
  /** Use → Implement: an approved plan to carry out, with its plan gate discharged (docs/decisions/plans.md). */
  implement?: boolean;
  /** The worker's newest decision id the human saw (a rendered card); refused when another landed since. */
  expectDecision?: string | null;
}

export interface UseWorkerResult {
  worker: string;
  kind: string;
  sourceHandoff: { sourceRef: string; approvingDecisionId: string; useDecisionId: string };
  /** `discharged` only for Implement on a plan-gated kind; `armed` for a plan-gated kind otherwise. */
  planGate: PlanGateState;
  spawn: SpawnResult;
  notes: string[];
}

/**
 * Use → Worker (and Use → Implement with `implement`): one fresh worker (never seeded) with the byte-exact body as
 * reviewed input. Implement takes its kind from config `implementKind`, seeds the task from the plan's goal, and
 * discharges the plan gate; the launch confirmation is the same.
 */
export async function useForWorker(ctx: EngineContext, input: UseWorkerInput): Promise<UseWorkerResult> {
  checkUseWorker(ctx, input);
  const source = resolveUseSource(ctx, input.target, input.version);
  checkLaunch(ctx, input);
  const implement = input.implement ? implementPlan(ctx, source, input.kind) : undefined;
  const ref = source.pointer.ref;
  const task =
    input.task?.trim() ||
    implement?.task ||
    `Work from the reviewed deliverable ${ref} (its exact text is in source-deliverable.md).`;
  const use = useOf(source);
  // The launch is checked as spawn will check it before the use is recorded: a refused use records nothing.
  await resolveSpawn(ctx, { ...input, kind: implement?.kind ?? input.kind, task, fresh: true, yes: true }, true);
  if (input.items?.length) dispatchableItems(ctx.db, input.items);
  const used = ctx.commands.run("use.worker", { ref, task, implement: Boolean(implement) }, (tx) => {
    const auth = use.authorize(tx, input.expectDecision);
    const decision = insertDecision(tx, {
      actor: input.actor ?? "human",
      verb: "use",
      worker: source.subject,
      deliverable: source.pointer,
      option: implement ? "implement" : "worker",
      note: `task: ${task}`,
      evidenceRefs: source.evidenceRefs,
      contentSha256: source.sha256,
    });
    return { auth, decision: decisionView(decision) };
  }).result;
  const handoff = handoffOf(source, use, used, Boolean(implement));
  let spawned: SpawnResult;
  try {
    spawned = await spawnWorker(ctx, {
      ...input,
      kind: implement?.kind ?? input.kind,
      task,
      fresh: true,
      yes: true, // the human confirmed the handoff (or passed --yes) before this call
      handoff,
    });
  } catch (error) {
    throw refusal(
      "use-worker-not-started",
      `use decision ${used.decision.id} was recorded but no worker started: ${(error as Error).message}`,
      "fix the cause and run the same use again",
    );
  }
  const planGated = kindRegistry(ctx).kinds.get(spawned.kind)?.planGate ?? false;
  return {
    worker: spawned.worker,
    kind: spawned.kind,
    planGate: resolvePlanGate({ planGate: planGated }, Boolean(implement)),
    sourceHandoff: {
      sourceRef: ref,
      approvingDecisionId: used.auth.approvingDecisionId,
      useDecisionId: used.decision.id,
    },
    spawn: spawned,
    notes: [
      ...spawned.summary,
      `${spawned.worker} started with reviewed input ${ref} (approved ${used.auth.approvingDecisionId}, use ${used.decision.id})`,
    ],
  };
}

/** Who may hand off, and how: the human, confirmed, always fresh. */
function checkUseWorker(ctx: EngineContext, input: UseWorkerInput): void {
  assertHuman(ctx, "use");
  if (input.seedFile !== undefined)
    throw validationError(
      "handoff-is-fresh",
      "a handoff worker always starts fresh; --seed cannot be used with use --worker",
    );
  if (
    resolveConfirmation("use --worker", { yes: Boolean(input.yes), interactive: Boolean(input.interactive) }) ===
    "refuse"
  ) {
    throw confirmationRefused("use --worker", input.target);
  }
}

/** Cheap launch checks before the use decision is recorded, so an obvious typo changes nothing. */
function checkLaunch(ctx: EngineContext, input: UseWorkerInput): void {
  if (AGENT_TRAITS[input.agent ?? "pi"].runsUserCommand && !input.command?.trim())
    throw usageError("missing-cmd", "--agent command needs --cmd '<shell command>'");
  if (input.kind !== undefined && !kindRegistry(ctx).kinds.has(input.kind)) {
    throw validationError(
      "spawn-policy",
      `unknown kind ${JSON.stringify(input.kind)}; known kinds: ${[...kindRegistry(ctx).kinds.keys()].join(", ")}; nothing changed`,
      "run `docket kinds`",
    );
  }
}

/** What the new worker is given of the reviewed source: its exact body, the handoff record and its brief. */
function handoffOf(
  source: Reviewable,
  use: UseHooks,
  used: { auth: ReturnType<UseHooks["authorize"]>; decision: { id: string } },
  planAuthorized: boolean,
): SpawnHandoff {
  const sidecarPath = ""; // spawn names the new worker's own source-deliverable.md once its id exists
  const ref = source.pointer.ref;
  const record: SourceHandoff = {
    sourceRef: ref,
    sourceId: source.pointer.id,
    sourceVersion: source.pointer.version,
    ...(use.sourceWorker ? { sourceWorker: use.sourceWorker } : {}),
    sourceKind: use.sourceKind,
    approvingDecisionId: used.auth.approvingDecisionId,
    useDecisionId: used.decision.id,
    approvedAt: used.auth.approvedAt,
    sidecarPath,
    // Only Implement with a reviewed source authorises the plan; the store layer ignores it without one.
    planAuthorized,
  };
  return {
    sourceBody: source.body,
    record,
    brief: {
      sourceRef: ref,
      sourceVersion: source.pointer.version,
      from: use.from,
      approvingDecisionId: used.auth.approvingDecisionId,
      approvedAt: used.auth.approvedAt,
      sidecarPath,
      planAuthorized,
      useDecisionId: used.decision.id,
    },
  };
}

/** Use → Implement: the source must propose work (a plan or proposal, no patch); kind and task come from config and goal. */
function implementPlan(
  ctx: EngineContext,
  source: Reviewable,
  kindFlag: string | undefined,
): { kind: string; task: string } {
  const {
    outcome,
    pointer: { ref },
  } = source;
  const patch = source.changeSet?.patch;
  const plan = parsePlan(source.body);
  if (patch) {
    throw refusal(
      "implement-has-patch",
      `${ref} carries a patch, not a plan; nothing changed`,
      `promote it with \`docket promote ${ref}\`, or use --worker`,
    );
  }
  if (!isPlanLike(outcome, plan)) {
    throw refusal(
      "implement-not-a-plan",
      `${ref} is ${outcome}, not a plan or proposal; nothing changed`,
      "use --worker to hand it to a worker as input",
    );
  }
  const goal = plan?.goal ? oneLine(plan.goal) : undefined; // worker text in task.md's "# Task": one line, no heading of its own
  const kind = kindFlag ?? trustedKindChoice(ctx, kindRegistry(ctx).kinds, "implementKind").name ?? "implementer";
  if (!kindRegistry(ctx).kinds.has(kind)) {
    throw validationError(
      "spawn-policy",
      `implementKind ${JSON.stringify(kind)} is not a known kind; nothing changed`,
      "fix implementKind in config.json, or pass --as <kind>",
    );
  }
  return {
    kind,
    task: goal ? `Implement approved plan ${ref}: ${goal}` : `Implement approved plan ${ref}.`,
  };
}

export interface ChipView {
  id: string;
  ref: string;
  worker: string | null;
  state: Chip["state"];
  bytes: number;
  createdAt: string;
}

const chipView = (c: Chip): ChipView => ({
  id: c.id,
  ref: c.ref,
  worker: c.worker,
  state: c.state,
  bytes: Buffer.byteLength(c.body, "utf8"),
  createdAt: c.createdAt,
});

/** Chips of this project (queued only, unless `all`). */
export function chipList(ctx: EngineContext, options: { all?: boolean } = {}): ChipView[] {
  return listChips(ctx.db, { projectRoot: ctx.projectRoot(), all: options.all }).map(chipView);
}

export function dropChip(ctx: EngineContext, id: string): ChipView {
  assertHuman(ctx, "chips drop");
  assertExactRef(id, "a chip id");
  const chipId = id;
  if (!/^c[1-9][0-9]{0,9}$/.test(chipId))
    throw validationError("bad-chip-id", `"${id}" is not a chip id; chips are c<N>`, "run `docket chips`");
  return chipView(ctx.commands.run("chips.drop", { id: chipId }, (tx) => dropChipRow(tx, chipId)).result);
}
