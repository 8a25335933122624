// Recording a combine's outcome: the combined version frozen first (a no-replace claim of the pair's next version, or
// the orphan this operation already froze), then one command that closes both sources as combined
// (docs/decisions/command-pattern.md).

import { createHash } from "node:crypto";
import type { CombinedDeliverable, CombinedSource } from "../../domain/deliverables/combined.js";
import { combinedChangesRef, combinedId, combinedKey, combinedRef } from "../../domain/deliverables/refs.js";
import { refusal } from "../../domain/errors.js";
import { formatMergeSummary, patchResidue } from "../../domain/review/combine.js";
import { claimCombined, findCombinedByOperation, listCombinedVersions } from "../../files/review/combined-files.js";
import type { Tx } from "../../ledger/core/runner.js";
import { insertCombination } from "../../ledger/review/combinations.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import { requireWorker, updateWorker } from "../../ledger/workers/workers.js";
import type { MergeOutcome } from "../../substrate/git/combine-merge.js";
import type { EngineContext } from "../context.js";
import type { CombineResult, Source } from "./combine-sources.js";
import { closureOf } from "./target.js";

export const recorded = (s: Source): CombinedSource => ({
  worker: s.worker,
  ref: s.ref,
  version: s.pointer.version,
  sha256: s.sha256,
  task: s.task,
});
/** `1 file`, `2 files`. */
const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;
export const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

function nextVersion(ctx: EngineContext, key: string): number {
  return Math.max(0, ...listCombinedVersions(ctx.home, key)) + 1;
}

/** Claims the next free version of the pair for `build(version)`, or finds the orphan this operation already froze. */
export function freeze(
  ctx: EngineContext,
  key: string,
  operation: string,
  build: (version: number) => CombinedDeliverable,
): CombinedDeliverable {
  const orphan = findCombinedByOperation(ctx.home, key, operation);
  if (orphan?.ok) return orphan.deliverable;
  for (let version = nextVersion(ctx, key), n = 0; n < 1000; n++, version++) {
    const d = build(version);
    if (claimCombined(ctx.home, key, version, d)) return d;
  }
  throw refusal("version-claim-failed", `could not claim a combined version for ${key} after 1000 attempts`);
}

export function combinedDeliverable(
  ctx: EngineContext,
  s: [Source, Source],
  m: MergeOutcome,
  diff: NonNullable<MergeOutcome["diff"]>,
  how: { operation: string; contested: string[] },
) {
  const key = combinedKey(s[0].worker, s[1].worker);
  const kind = how.contested.length === 0 ? "clean" : "resolved";
  const body = [
    `# Combined change set of ${s[0].worker} and ${s[1].worker}`,
    "",
    `- ${s[0].worker} · ${s[0].task} — ${s[0].ref}: ${s[0].deliverable.summary}`,
    `- ${s[1].worker} · ${s[1].task} — ${s[1].ref}: ${s[1].deliverable.summary}`,
    "",
    `Merged by git merge-tree over base ${m.base}.`,
    kind === "clean"
      ? "git merged it without conflicts."
      : `The human resolved ${counted(how.contested.length, "contested file")}: ${how.contested.join(", ")}.`,
    "",
  ].join("\n");
  return (version: number): CombinedDeliverable => ({
    schemaVersion: 1,
    id: combinedId(key),
    version,
    ref: combinedRef(key, version),
    createdAt: ctx.clock.now(),
    operation: how.operation,
    sources: s.map(recorded),
    outcome: "completed",
    summary: `${s[0].worker} + ${s[1].worker}: ${s[0].deliverable.summary} + ${s[1].deliverable.summary}`.slice(0, 500),
    body,
    resolution: { kind, contested: how.contested },
    changeSet: {
      ref: combinedChangesRef(key, version),
      base: m.base,
      files: diff.files,
      stat: diff.stat,
      hunks: diff.hunks,
      patch: diff.patch,
    },
  });
}

export function assertNoResidue(s: [Source, Source], patch: string): void {
  const residue = patchResidue(
    patch,
    s.map((x) => x.deliverable.changeSet!.patch),
  );
  if (residue.length > 0) {
    throw refusal(
      "conflict-markers",
      `conflict markers are still in the combined files (${residue.map((r) => r.path).join(", ")}); nothing was frozen`,
      "resolve them in the scratch folder, or drop the combine with `docket combine --abort`",
    );
  }
}

/** Inside the recording command: each source must still be open, then it is closed as combined into `ref`. */
export function closeSources(tx: Tx, s: [Source, Source], ref: string, how: string): string[] {
  return s.map((src, i) => {
    const closed = closureOf(tx.db, src.pointer);
    if (closed)
      throw refusal(
        "combine-source-closed",
        `${src.ref} was closed meanwhile (${closed.verb}, ${closed.id}); nothing changed`,
      );
    const other = s[1 - i]!;
    const d = insertDecision(tx, {
      actor: "human",
      verb: "combine",
      worker: src.worker,
      deliverable: src.pointer,
      option: ref,
      note: `combined with ${other.worker} (${other.ref}) into ${ref} (${how})`,
      evidenceRefs: [src.ref, other.ref, ref],
      contentSha256: src.sha256,
    });
    const row = requireWorker(tx.db, src.worker);
    if (row.deliverableRef === src.ref) updateWorker(tx, src.worker, { reviewedAt: tx.now });
    return d.id;
  });
}

export function markSources(tx: Tx, s: [Source, Source], verb: string, note: string): string[] {
  return s.map(
    (src) =>
      insertDecision(tx, {
        actor: "human",
        verb,
        worker: src.worker,
        deliverable: src.pointer,
        note,
        evidenceRefs: [src.ref],
        contentSha256: src.sha256,
      }).id,
  );
}

/** A merge git finished alone: frozen as the next combined version, recorded with both sources closed. */
export function freezeClean(ctx: EngineContext, s: [Source, Source], m: MergeOutcome): CombineResult {
  const diff = m.diff!;
  assertNoResidue(s, diff.patch);
  const key = combinedKey(s[0].worker, s[1].worker);
  const operation = `clean:${sha([s[0].ref, s[0].sha256, s[1].ref, s[1].sha256, sha(diff.patch)].join("\n"))}`;
  const d = freeze(ctx, key, operation, combinedDeliverable(ctx, s, m, diff, { operation, contested: [] }));
  const summary = formatMergeSummary(m.summary);
  const r = ctx.commands.run("combine.clean", { operation }, (tx) => {
    const combination = insertCombination(tx, {
      projectRoot: s[0].target.worker.projectRoot,
      key,
      sources: s.map(recorded),
      base: m.base,
      state: "frozen",
      merge: { tree: m.tree, contested: [] },
      resultRef: d.ref,
    });
    return {
      combination,
      decisions: closeSources(
        tx,
        s,
        d.ref,
        `merged clean, ${diff.files.length} file${diff.files.length === 1 ? "" : "s"}`,
      ),
    };
  }).result;
  return {
    outcome: "combined",
    combination: r.combination,
    deliverable: { id: d.id, version: d.version, ref: d.ref },
    files: diff.files.map((f) => f.path),
    summary,
    decisions: r.decisions,
    notes: [
      `${summary}: froze ${d.ref}; ${s[0].ref} and ${s[1].ref} are closed as combined`,
      `review it with \`docket verdict ${d.ref}\`, then approve and promote it like any version`,
    ],
  };
}

export function pending(): Error {
  return refusal(
    "combine-pending",
    "a combine is waiting for your resolution in this project; nothing changed",
    "finish it with `docket combine --continue` or drop it with `docket combine --abort`",
  );
}
