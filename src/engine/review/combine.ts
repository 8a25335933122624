// `docket combine`: two workers' overlapping frozen change sets merged over the base they share. Clean → a new frozen
// combined version; conflicts → a scratch folder the human resolves (combine-resolution.ts); or both sides handed to
// one worker. Files are made before the one command that records the outcome (issue 16 §6, DESIGN §3).

import { quotePath } from "../../domain/text/quote-path.js";
import { codeFence } from "../../domain/text/fence.js";
import { validationError } from "../../domain/errors.js";
import { formatMergeSummary } from "../../domain/review/combine.js";
import { resolvingCombination } from "../../ledger/review/combinations.js";
import { insertMessage } from "../../ledger/talk/messages.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import type { MergeOutcome } from "../../substrate/git/combine-merge.js";
import { assertHuman } from "../authority.js";
import type { EngineContext } from "../context.js";
import { pasteToCommandWorker } from "../talk/command-paste.js";
import { freezeClean, markSources, pending } from "./combine-record.js";
import { startResolution } from "./combine-resolution.js";
import { sourcesOf, type CombineResult, type Source } from "./combine-sources.js";
import type { ReviewFacts } from "./review-facts.js";

export { abortCombine, continueCombine } from "./combine-resolution.js";
export type { CombineResult } from "./combine-sources.js";

export interface CombineInput {
  /** Two workers or exact worker refs: `w2 w3`, `worker-deliverable:w2:1 w3`. */
  sources: [string, string];
  /** Hand both sides and the merge residue to this worker (one of the two) instead of combining here. */
  to?: string;
}

/** Both sides and the merge residue to one of the two workers, through its inbox (`tell`). */
function handOff(ctx: EngineContext, s: [Source, Source], m: MergeOutcome, to: string): CombineResult {
  const target = s.find((x) => x.worker === to);
  if (!target)
    throw validationError(
      "combine-to-invalid",
      `--to ${to} must be one of the two workers combined (${s[0].worker}, ${s[1].worker})`,
    );
  const other = s.find((x) => x !== target)!;
  const summary = formatMergeSummary(m.summary);
  const residue = m.clean
    ? "git merges the two change sets without conflicts; make sure they still work together."
    : m.contested.map((c) => fenced(`### ${quotePath(c.path)} (${c.kind})`, c.draft.toString("utf8"), "")).join("\n\n");
  const patch = other.deliverable.changeSet!.patch.trimEnd();
  const body = [
    `Another worker, ${other.worker} (${other.task}), changed the same files as your ${target.ref}. ` +
      "Its version is under review, not in the project.",
    `Combine both into one change set in your workspace and publish it with docket_done (${summary}).`,
    "",
    `## ${other.worker}'s frozen patch (${other.ref})`,
    "",
    fenced("", patch, "diff").trimStart(),
    "",
    "## What git could not merge",
    "",
    residue,
  ].join("\n");
  const r = ctx.commands.run("combine.handoff", { to, refs: s.map((x) => x.ref) }, (tx) => {
    const message = insertMessage(tx, { worker: target.worker, kind: "tell", body, deliverAs: "followUp" });
    return {
      message,
      decisions: markSources(
        tx,
        s,
        "combine-handoff",
        `${summary}; both sides handed to ${target.worker} (${message})`,
      ),
    };
  }).result;
  const pasted = pasteToCommandWorker(ctx, target.worker, r.message, body);
  return {
    outcome: "handed-off",
    worker: target.worker,
    message: r.message,
    summary,
    decisions: r.decisions,
    notes: [
      `${summary}: both sides sent to ${target.worker} as ${r.message}` +
        `${pasted?.pasted ? " (pasted into its pane)" : ""}; ` +
        "its next docket_done is the combined version",
    ],
  };
}

export function combineChangeSets(ctx: EngineContext, input: CombineInput): CombineResult {
  assertHuman(ctx, "combine");
  ctx.git.assertMergeTreeGit();
  const s = sourcesOf(ctx, input.sources);
  const root = s[0].target.worker.projectRoot;
  if (input.to === undefined && resolvingCombination(ctx.db, root)) throw pending();
  return ctx.git.withMerge(root, s[0], s[1], (m) => {
    if (input.to !== undefined) return handOff(ctx, s, m, input.to.trim());
    return m.clean ? freezeClean(ctx, s, m) : startResolution(ctx, s, m);
  });
}

export interface CombinePreview {
  with: string;
  task: string;
  /** `merges clean, 2 files` / `2 conflicts in 1 file`, or why it cannot be combined. */
  text: string;
  possible: boolean;
}

/**
 * The dry merge a card shows before anything is chosen: nothing is recorded and no file of the home is written.
 * `facts` shares one dry merge per pair of exact versions across a review run (both cards of a pair ask for it).
 */
export function previewCombine(ctx: EngineContext, mine: string, other: string, facts?: ReviewFacts): CombinePreview {
  const task = requireWorker(ctx.db, other).task;
  try {
    ctx.git.assertMergeTreeGit();
    const s = sourcesOf(ctx, [mine, other]);
    const dry = () =>
      ctx.git.withMerge(s[0].target.worker.projectRoot, s[0], s[1], (m) => formatMergeSummary(m.summary), {
        dry: true,
      });
    const text = facts ? facts.dryMerge([s[0].ref, s[1].ref], dry) : dry();
    return { with: other, task, text, possible: true };
  } catch (error) {
    if (
      (error as { category?: string }).category === undefined ||
      (error as { category?: string }).category === "internal"
    )
      throw error;
    return {
      with: other,
      task,
      text: `cannot combine: ${(error as Error).message.replace(/; nothing (changed|was frozen)$/, "")}`,
      possible: false,
    };
  }
}

/** A heading and worker bytes in a code fence longer than any backtick run inside, so no line of them can close it. */
function fenced(heading: string, text: string, info: string): string {
  const fence = codeFence(text, info);
  return `${heading}\n\n${fence.open}\n${text}\n${fence.close}`;
}
