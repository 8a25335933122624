// `docket combine`: two workers' overlapping frozen change sets merged over the base they share. Clean → a new frozen
// combined version; conflicts → a scratch folder the human resolves (`--continue` freezes it, `--abort` drops it); or both
// sides handed to one worker. Files are made before the one command that records the outcome (issue 16 §6, DESIGN §3).

import { combinedChangesRef, combinedId, combinedKey, combinedRef, deliverableId } from "../../domain/deliverables/refs.js";
import { codeFence } from "../../domain/text/fence.js";
import { quotePath } from "../../domain/text/quote-path.js";
import { createHash } from "node:crypto";
import { type CombinedDeliverable, type CombinedSource } from "../../domain/deliverables/combined.js";
import type { DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { refusal, validationError } from "../../domain/errors.js";
import { formatMergeSummary, patchResidue, residueLines } from "../../domain/review/combine.js";
import {
  claimCombined, createScratch, findCombinedByOperation, listCombinedVersions, readScratchFile, removeScratch, strayScratch, type ScratchFile,
} from "../../files/review/combined-files.js";
import type { Tx } from "../../ledger/core/runner.js";
import { insertCombination, resolvingCombination, scratchInUse, settleCombination, type CombinationRow, type RecordedMerge } from "../../ledger/review/combinations.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import { insertMessage } from "../../ledger/talk/messages.js";
import { requireWorker, updateWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { assertHuman } from "../authority.js";
import { pasteToCommandWorker } from "../talk/command-paste.js";
import type { ContestedFile, MergeOutcome, MergeSource } from "../../substrate/git/combine-merge.js";
import type { ReviewFacts } from "./review-facts.js";
import { closureOf, resolveReviewTarget, type ReviewTarget } from "./target.js";

export interface CombineInput {
  /** Two workers or exact worker refs: `w2 w3`, `worker-deliverable:w2:1 w3`. */
  sources: [string, string];
  /** Hand both sides and the merge residue to this worker (one of the two) instead of combining here. */
  to?: string;
}

export type CombineResult =
  | { outcome: "combined"; combination: string; deliverable: DeliverablePointer; files: string[]; summary: string; decisions: string[]; notes: string[] }
  | { outcome: "conflicts"; combination: string; scratch: string; contested: { path: string; kind: string; conflicts: number }[]; summary: string; decisions: string[]; notes: string[] }
  | { outcome: "handed-off"; worker: string; message: string; summary: string; decisions: string[]; notes: string[] };

interface Source extends MergeSource {
  target: ReviewTarget;
  pointer: DeliverablePointer;
  sha256: string;
}

function sourceOf(ctx: EngineContext, target: string): Source {
  const t = resolveReviewTarget(ctx, { target });
  const cs = t.deliverable.changeSet;
  if (!cs || cs.patch === "") throw refusal("nothing-to-combine", `${t.pointer.ref} has no frozen patch; there is nothing to combine`);
  const closed = closureOf(ctx.db, t.pointer);
  if (closed) {
    const why = closed.verb === "promote" ? "is already promoted: its changes are in your checkout" : closed.verb === "reject" ? "was rejected" : "was already combined";
    throw refusal("combine-source-closed", `${t.pointer.ref} ${why} (${closed.id}); nothing changed`, "combine two open versions; a worker whose base moved can be told with `docket tell <w> <text>`");
  }
  return { worker: t.worker.id, task: t.worker.task, ref: t.pointer.ref, deliverable: t.deliverable, target: t, pointer: t.pointer, sha256: t.sha256 };
}

function sourcesOf(ctx: EngineContext, input: [string, string]): [Source, Source] {
  const a = sourceOf(ctx, input[0]);
  const b = sourceOf(ctx, input[1]);
  if (a.worker === b.worker) throw validationError("combine-same-worker", `both sides are ${a.worker}; Combine merges two different workers' change sets`);
  if (a.target.worker.projectRoot !== b.target.worker.projectRoot) {
    throw refusal("combine-other-project", `${a.worker} and ${b.worker} work on different projects (${a.target.worker.projectRoot}, ${b.target.worker.projectRoot}); nothing changed`);
  }
  // The lower label is "ours" whatever order they were named in, so the same pair always merges the same way.
  return combinedKey(a.worker, b.worker).startsWith(`${a.worker}+`) ? [a, b] : [b, a];
}

const recorded = (s: Source): CombinedSource => ({ worker: s.worker, ref: s.ref, version: s.pointer.version, sha256: s.sha256, task: s.task });
const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

function nextVersion(ctx: EngineContext, key: string): number {
  return Math.max(0, ...listCombinedVersions(ctx.home, key)) + 1;
}

/** Claims the next free version of the pair for `build(version)`, or finds the orphan this operation already froze. */
function freeze(ctx: EngineContext, key: string, operation: string, build: (version: number) => CombinedDeliverable): CombinedDeliverable {
  const orphan = findCombinedByOperation(ctx.home, key, operation);
  if (orphan?.ok) return orphan.deliverable;
  for (let version = nextVersion(ctx, key), n = 0; n < 1000; n++, version++) {
    const d = build(version);
    if (claimCombined(ctx.home, key, version, d)) return d;
  }
  throw refusal("version-claim-failed", `could not claim a combined version for ${key} after 1000 attempts`);
}

function combinedDeliverable(ctx: EngineContext, s: [Source, Source], m: MergeOutcome, diff: NonNullable<MergeOutcome["diff"]>, how: { operation: string; contested: string[] }) {
  const key = combinedKey(s[0].worker, s[1].worker);
  const kind = how.contested.length === 0 ? "clean" : "resolved";
  const body = [
    `# Combined change set of ${s[0].worker} and ${s[1].worker}`,
    "",
    `- ${s[0].worker} · ${s[0].task} — ${s[0].ref}: ${s[0].deliverable.summary}`,
    `- ${s[1].worker} · ${s[1].task} — ${s[1].ref}: ${s[1].deliverable.summary}`,
    "",
    `Merged by git merge-tree over base ${m.base}.`,
    kind === "clean" ? "git merged it without conflicts." : `The human resolved ${how.contested.length} contested file${how.contested.length === 1 ? "" : "s"}: ${how.contested.join(", ")}.`,
    "",
  ].join("\n");
  return (version: number): CombinedDeliverable => ({
    schemaVersion: 1, id: combinedId(key), version, ref: combinedRef(key, version), createdAt: ctx.clock.now(), operation: how.operation,
    sources: s.map(recorded), outcome: "completed",
    summary: `${s[0].worker} + ${s[1].worker}: ${s[0].deliverable.summary} + ${s[1].deliverable.summary}`.slice(0, 500),
    body, resolution: { kind, contested: how.contested },
    changeSet: { ref: combinedChangesRef(key, version), base: m.base, files: diff.files, stat: diff.stat, hunks: diff.hunks, patch: diff.patch },
  });
}

function assertNoResidue(s: [Source, Source], patch: string): void {
  const residue = patchResidue(patch, s.map((x) => x.deliverable.changeSet!.patch));
  if (residue.length > 0) {
    throw refusal("conflict-markers", `conflict markers are still in the combined files (${residue.map((r) => r.path).join(", ")}); nothing was frozen`, "resolve them in the scratch folder, or drop the combine with `docket combine --abort`");
  }
}

/** Inside the recording command: each source must still be open, then it is closed as combined into `ref`. */
function closeSources(tx: Tx, s: [Source, Source], ref: string, how: string): string[] {
  return s.map((src, i) => {
    const closed = closureOf(tx.db, src.pointer);
    if (closed) throw refusal("combine-source-closed", `${src.ref} was closed meanwhile (${closed.verb}, ${closed.id}); nothing changed`);
    const other = s[1 - i]!;
    const d = insertDecision(tx, {
      actor: "human", verb: "combine", worker: src.worker, deliverable: src.pointer, option: ref, note: `combined with ${other.worker} (${other.ref}) into ${ref} (${how})`,
      evidenceRefs: [src.ref, other.ref, ref], contentSha256: src.sha256,
    });
    const row = requireWorker(tx.db, src.worker);
    if (row.deliverableRef === src.ref) updateWorker(tx, src.worker, { reviewedAt: tx.now });
    return d.id;
  });
}

function markSources(tx: Tx, s: [Source, Source], verb: string, note: string): string[] {
  return s.map((src) => insertDecision(tx, { actor: "human", verb, worker: src.worker, deliverable: src.pointer, note, evidenceRefs: [src.ref], contentSha256: src.sha256 }).id);
}

/** A merge git finished alone: frozen as the next combined version, recorded with both sources closed. */
function freezeClean(ctx: EngineContext, s: [Source, Source], m: MergeOutcome): CombineResult {
  const diff = m.diff!;
  assertNoResidue(s, diff.patch);
  const key = combinedKey(s[0].worker, s[1].worker);
  const operation = `clean:${sha([s[0].ref, s[0].sha256, s[1].ref, s[1].sha256, sha(diff.patch)].join("\n"))}`;
  const d = freeze(ctx, key, operation, combinedDeliverable(ctx, s, m, diff, { operation, contested: [] }));
  const summary = formatMergeSummary(m.summary);
  const r = ctx.commands.run("combine.clean", { operation }, (tx) => {
    const combination = insertCombination(tx, { projectRoot: s[0].target.worker.projectRoot, key, sources: s.map(recorded), base: m.base, state: "frozen", merge: { tree: m.tree, contested: [] }, resultRef: d.ref });
    return { combination, decisions: closeSources(tx, s, d.ref, `merged clean, ${diff.files.length} file${diff.files.length === 1 ? "" : "s"}`) };
  }).result;
  return {
    outcome: "combined", combination: r.combination, deliverable: { id: d.id, version: d.version, ref: d.ref }, files: diff.files.map((f) => f.path), summary, decisions: r.decisions,
    notes: [`${summary}: froze ${d.ref}; ${s[0].ref} and ${s[1].ref} are closed as combined`, `review it with \`docket verdict ${d.ref}\`, then approve and promote it like any version`],
  };
}

function readme(s: [Source, Source], contested: readonly ContestedFile[]): string {
  return [
    `# Combine ${s[0].worker} + ${s[1].worker}`,
    "",
    `- ours: ${s[0].worker} · ${s[0].task} (${s[0].ref})`,
    `- theirs: ${s[1].worker} · ${s[1].task} (${s[1].ref})`,
    "",
    "Each file under files/ is a contested file in diff3 form: ours, the base both started from, theirs.",
    "Edit it to the content you want and remove every marker line. Delete the file to delete it in the result.",
    "For a binary file, copy the side you want (under sides/) over it.",
    "",
    "Then run `docket combine --continue` (refused while any marker remains), or `docket combine --abort` to drop this.",
    "",
    ...contested.map((c) => `- files/${c.path} — ${c.kind}, ${c.conflicts} conflict${c.conflicts === 1 ? "" : "s"}`),
    "",
  ].join("\n");
}

/** Conflicts: the scratch folder is made whole first, then one command records the waiting combine. */
function startResolution(ctx: EngineContext, s: [Source, Source], m: MergeOutcome): CombineResult {
  const root = s[0].target.worker.projectRoot;
  if (resolvingCombination(ctx.db, root)) throw pending();
  const inUse = scratchInUse(ctx.db);
  for (const stray of strayScratch(ctx.home, inUse)) removeScratch(ctx.home, stray); // a crash's leftovers, recorded nowhere
  const key = combinedKey(s[0].worker, s[1].worker);
  const files: ScratchFile[] = [
    { path: "README.md", bytes: readme(s, m.contested) },
    ...m.contested.flatMap((c) => [{ path: `files/${c.path}`, bytes: c.draft }, ...c.sides]),
  ];
  const scratch = createScratch(ctx.home, `${key.replace("+", "-")}-${Date.parse(ctx.clock.now()).toString(36)}`, files);
  const merge: RecordedMerge = { tree: m.tree, contested: m.contested.map((c) => ({ path: c.path, kind: c.kind })) };
  const summary = formatMergeSummary(m.summary);
  let r: { combination: string; decisions: string[] };
  try {
    r = ctx.commands.run("combine.conflicts", { key, scratch }, (tx) => {
      if (resolvingCombination(tx.db, root)) throw pending();
      for (const src of s) if (closureOf(tx.db, src.pointer)) throw refusal("combine-source-closed", `${src.ref} was closed meanwhile; nothing changed`);
      const combination = insertCombination(tx, { projectRoot: root, key, sources: s.map(recorded), base: m.base, state: "resolving", merge, scratch });
      return { combination, decisions: markSources(tx, s, "combine-conflicts", `${summary} combining ${s[0].worker} + ${s[1].worker}; resolving in ${scratch}`) };
    }).result;
  } catch (error) {
    removeScratch(ctx.home, scratch);
    throw error;
  }
  return {
    outcome: "conflicts", combination: r.combination, scratch, summary, decisions: r.decisions,
    contested: m.contested.map((c) => ({ path: c.path, kind: c.kind, conflicts: c.conflicts })),
    notes: [
      `${summary}: resolve them in ${scratch}/files (README.md there says how)`,
      "then `docket combine --continue` to freeze the result, or `docket combine --abort` to drop it; nothing reaches your checkout until you promote",
    ],
  };
}

function pending(): Error {
  return refusal("combine-pending", "a combine is waiting for your resolution in this project; nothing changed", "finish it with `docket combine --continue` or drop it with `docket combine --abort`");
}

/** Both sides and the merge residue to one of the two workers, through its inbox (`tell`). */
function handOff(ctx: EngineContext, s: [Source, Source], m: MergeOutcome, to: string): CombineResult {
  const target = s.find((x) => x.worker === to);
  if (!target) throw validationError("combine-to-invalid", `--to ${to} must be one of the two workers combined (${s[0].worker}, ${s[1].worker})`);
  const other = s.find((x) => x !== target)!;
  const summary = formatMergeSummary(m.summary);
  const residue = m.clean
    ? "git merges the two change sets without conflicts; make sure they still work together."
    : m.contested.map((c) => fenced(`### ${quotePath(c.path)} (${c.kind})`, c.draft.toString("utf8"), "")).join("\n\n");
  const patch = other.deliverable.changeSet!.patch.trimEnd();
  const body = [
    `Another worker, ${other.worker} (${other.task}), changed the same files as your ${target.ref}. Its version is under review, not in the project.`,
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
    return { message, decisions: markSources(tx, s, "combine-handoff", `${summary}; both sides handed to ${target.worker} (${message})`) };
  }).result;
  const pasted = pasteToCommandWorker(ctx, target.worker, r.message, body);
  return {
    outcome: "handed-off", worker: target.worker, message: r.message, summary, decisions: r.decisions,
    notes: [`${summary}: both sides sent to ${target.worker} as ${r.message}${pasted?.pasted ? " (pasted into its pane)" : ""}; its next docket_done is the combined version`],
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

function waiting(ctx: EngineContext): CombinationRow {
  const row = resolvingCombination(ctx.db, ctx.projectRoot());
  if (!row) throw refusal("no-combine-pending", "no combine is waiting for resolution in this project; nothing changed", "start one with `docket combine <w> <w>`");
  return row;
}

/** The sources as recorded, re-read: each sidecar must still hold the bytes the merge read, and still be open. */
function recordedSources(ctx: EngineContext, row: CombinationRow): [Source, Source] {
  const s = row.sources.map((r) => {
    const src = sourceOf(ctx, r.ref);
    if (src.sha256 !== r.sha256) throw refusal("combine-source-changed", `${r.ref} changed since the combine started (sha256 ${src.sha256.slice(0, 12)}, was ${r.sha256.slice(0, 12)}); nothing was frozen`, "drop it with `docket combine --abort` and combine again");
    return src;
  });
  return [s[0]!, s[1]!];
}

/** `--continue`: freezes what the human saved; refused while any marker remains (markers never reach the checkout). */
export function continueCombine(ctx: EngineContext): CombineResult {
  assertHuman(ctx, "combine");
  ctx.git.assertMergeTreeGit();
  const row = waiting(ctx);
  const s = recordedSources(ctx, row);
  const key = row.key;
  return ctx.git.withMerge(row.projectRoot, s[0], s[1], (m, ws) => {
    if (m.tree !== row.merge.tree) throw refusal("combine-merge-changed", `the merge of ${s[0].ref} and ${s[1].ref} no longer gives the tree this combine started from; nothing was frozen`, "drop it with `docket combine --abort` and combine again");
    const problems: string[] = [];
    const files = m.contested.map((c) => {
      const read = readScratchFile(ctx.home, row.scratch!, `files/${c.path}`);
      if (read.ok === false) {
        problems.push(`${c.path}: ${read.reason}`);
        return { path: c.path, mode: c.mode, bytes: null };
      }
      if (read.ok === "absent") return { path: c.path, mode: c.mode, bytes: null };
      if (!read.bytes.includes(0)) {
        const left = residueLines(read.bytes.toString("utf8"), c.own);
        if (left.length > 0) problems.push(`${c.path} (line${left.length === 1 ? "" : "s"} ${left.slice(0, 5).join(", ")})`);
      }
      return { path: c.path, mode: c.mode, bytes: read.bytes };
    });
    if (problems.length > 0) {
      throw refusal("conflict-markers", `conflict markers remain in ${problems.join("; ")}; nothing was frozen`, `edit the files in ${row.scratch}/files, or drop the combine with \`docket combine --abort\``);
    }
    const final = ctx.git.treeWithFiles(ws, m.tree, files);
    const diff = ctx.git.diffTrees(ws, m.base, final);
    if (diff.patch === "") throw refusal("combine-empty", "the resolved files leave nothing changed against the base; nothing was frozen", "edit the files again, or drop the combine with `docket combine --abort`");
    assertNoResidue(s, diff.patch);
    const contested = m.contested.map((c) => c.path);
    const operation = `${row.id}:${sha(diff.patch)}`;
    const d = freeze(ctx, key, operation, combinedDeliverable(ctx, s, m, diff, { operation, contested }));
    const decisions = ctx.commands.run("combine.continue", { combination: row.id, operation }, (tx) => {
      if (!settleCombination(tx, row.id, { state: "frozen", resultRef: d.ref })) throw refusal("no-combine-pending", `${row.id} was settled meanwhile; nothing changed`);
      return closeSources(tx, s, d.ref, `${contested.length} contested file${contested.length === 1 ? "" : "s"} resolved by the human`);
    }).result;
    removeScratch(ctx.home, row.scratch!);
    return {
      outcome: "combined" as const, combination: row.id, deliverable: { id: d.id, version: d.version, ref: d.ref }, files: diff.files.map((f) => f.path),
      summary: `resolved ${contested.length} contested file${contested.length === 1 ? "" : "s"}`, decisions,
      notes: [`froze ${d.ref} from your resolution; ${s[0].ref} and ${s[1].ref} are closed as combined`, `review it with \`docket verdict ${d.ref}\`, then approve and promote it like any version`],
    };
  });
}

/** `--abort`: the waiting combine is dropped (its scratch folder deleted); both sources stay open, as they were. */
export function abortCombine(ctx: EngineContext): { combination: string; decisions: string[]; notes: string[] } {
  assertHuman(ctx, "combine");
  const row = waiting(ctx);
  const decisions = ctx.commands.run("combine.abort", { combination: row.id }, (tx) => {
    if (!settleCombination(tx, row.id, { state: "aborted" })) throw refusal("no-combine-pending", `${row.id} was settled meanwhile; nothing changed`);
    return row.sources.map((src) =>
      insertDecision(tx, { actor: "human", verb: "combine-abort", worker: src.worker, deliverable: { id: deliverableId(src.worker), version: src.version, ref: src.ref }, note: `combine ${row.id} dropped`, evidenceRefs: [src.ref], contentSha256: src.sha256 }).id,
    );
  }).result;
  if (row.scratch) removeScratch(ctx.home, row.scratch);
  return { combination: row.id, decisions, notes: [`dropped ${row.id}; ${row.sources.map((x) => x.ref).join(" and ")} stay open for review`] };
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
    const dry = () => ctx.git.withMerge(s[0].target.worker.projectRoot, s[0], s[1], (m) => formatMergeSummary(m.summary), { dry: true });
    const text = facts ? facts.dryMerge([s[0].ref, s[1].ref], dry) : dry();
    return { with: other, task, text, possible: true };
  } catch (error) {
    if ((error as { category?: string }).category === undefined || (error as { category?: string }).category === "internal") throw error;
    return { with: other, task, text: `cannot combine: ${(error as Error).message.replace(/; nothing (changed|was frozen)$/, "")}`, possible: false };
  }
}

/** A heading and worker bytes in a code fence longer than any backtick run inside, so no line of them can close it. */
function fenced(heading: string, text: string, info: string): string {
  const fence = codeFence(text, info);
  return `${heading}\n\n${fence.open}\n${text}\n${fence.close}`;
}
