// `docket combine`: two workers' overlapping frozen change sets merged over the base they share. Clean → a new frozen
// combined version; conflicts → a scratch folder the human resolves (combine-resolution.ts); or both sides handed to
// one worker. Files are made before the one command that records the outcome (docs/decisions/command-pattern.md).

import { quotePath } from "../../domain/text/quote-path.js";
import { codeFence } from "../../domain/text/fence.js";
import { validationError } from "../../domain/errors.js";
import { formatMergeSummary } from "../../domain/review/combine.js";
import { resolvingCombination } from "../../ledger/review/combinations.js";
import { insertMessage } from "../../ledger/talk/messages.js";
import type { MergeOutcome } from "../../substrate/git/combine-merge.js";
import { assertHuman } from "../authority.js";
import type { EngineContext } from "../context.js";
import { pasteToCommandWorker } from "../talk/command-paste.js";
import { freezeClean, markSources, pending } from "./combine-record.js";
import { startResolution } from "./combine-resolution.js";
import { sourcesOf, type CombineResult, type Source } from "./combine-sources.js";

export { abortCombine, continueCombine } from "./combine-resolution.js";
export { previewCombine, type CombinePreview } from "./combine-preview.js";
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

/** A heading and worker bytes in a code fence longer than any backtick run inside, so no line of them can close it. */
function fenced(heading: string, text: string, info: string): string {
  const fence = codeFence(text, info);
  return `${heading}\n\n${fence.open}\n${text}\n${fence.close}`;
}
