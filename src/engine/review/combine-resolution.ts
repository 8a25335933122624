// A combine git could not finish alone: the scratch folder the human resolves in, `--continue` that freezes what they
// saved (refused while a marker remains: markers never reach the checkout), and `--abort` that drops it.

import { combinedKey, deliverableId } from "../../domain/deliverables/refs.js";
import { refusal } from "../../domain/errors.js";
import { formatMergeSummary, residueLines } from "../../domain/review/combine.js";
import {
  createScratch,
  readScratchFile,
  removeScratch,
  strayScratch,
  type ScratchFile,
} from "../../files/review/combined-files.js";
import {
  insertCombination,
  resolvingCombination,
  scratchInUse,
  settleCombination,
  type CombinationRow,
  type RecordedMerge,
} from "../../ledger/review/combinations.js";
import { insertDecision } from "../../ledger/review/decisions.js";
import type { ContestedFile, MergeOutcome } from "../../substrate/git/combine-merge.js";
import { assertHuman } from "../authority.js";
import type { EngineContext } from "../context.js";
import {
  assertNoResidue,
  closeSources,
  combinedDeliverable,
  freeze,
  markSources,
  pending,
  recorded,
  sha,
} from "./combine-record.js";
import { recordedSources, type CombineResult, type Source } from "./combine-sources.js";
import { closureOf } from "./target.js";

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
    "Then run `docket combine --continue` (refused while any marker remains),",
    "or `docket combine --abort` to drop this.",
    "",
    ...contested.map((c) => `- files/${c.path} — ${c.kind}, ${c.conflicts} conflict${c.conflicts === 1 ? "" : "s"}`),
    "",
  ].join("\n");
}

/** Conflicts: the scratch folder is made whole first, then one command records the waiting combine. */
export function startResolution(ctx: EngineContext, s: [Source, Source], m: MergeOutcome): CombineResult {
  const root = s[0].target.worker.projectRoot;
  if (resolvingCombination(ctx.db, root)) throw pending();
  const inUse = scratchInUse(ctx.db);
  // A crash's leftovers, recorded nowhere.
  for (const stray of strayScratch(ctx.home, inUse)) removeScratch(ctx.home, stray);
  const key = combinedKey(s[0].worker, s[1].worker);
  const files: ScratchFile[] = [
    { path: "README.md", bytes: readme(s, m.contested) },
    ...m.contested.flatMap((c) => [{ path: `files/${c.path}`, bytes: c.draft }, ...c.sides]),
  ];
  const scratch = createScratch(
    ctx.home,
    `${key.replace("+", "-")}-${Date.parse(ctx.clock.now()).toString(36)}`,
    files,
  );
  const merge: RecordedMerge = { tree: m.tree, contested: m.contested.map((c) => ({ path: c.path, kind: c.kind })) };
  const summary = formatMergeSummary(m.summary);
  let r: { combination: string; decisions: string[] };
  try {
    r = ctx.commands.run("combine.conflicts", { key, scratch }, (tx) => {
      if (resolvingCombination(tx.db, root)) throw pending();
      for (const src of s)
        if (closureOf(tx.db, src.pointer))
          throw refusal("combine-source-closed", `${src.ref} was closed meanwhile; nothing changed`);
      const combination = insertCombination(tx, {
        projectRoot: root,
        key,
        sources: s.map(recorded),
        base: m.base,
        state: "resolving",
        merge,
        scratch,
      });
      return {
        combination,
        decisions: markSources(
          tx,
          s,
          "combine-conflicts",
          `${summary} combining ${s[0].worker} + ${s[1].worker}; resolving in ${scratch}`,
        ),
      };
    }).result;
  } catch (error) {
    removeScratch(ctx.home, scratch);
    throw error;
  }
  return {
    outcome: "conflicts",
    combination: r.combination,
    scratch,
    summary,
    decisions: r.decisions,
    contested: m.contested.map((c) => ({ path: c.path, kind: c.kind, conflicts: c.conflicts })),
    notes: [
      `${summary}: resolve them in ${scratch}/files (README.md there says how)`,
      "then `docket combine --continue` to freeze the result, or `docket combine --abort` to drop it; " +
        "nothing reaches your checkout until you promote",
    ],
  };
}

function waiting(ctx: EngineContext): CombinationRow {
  const row = resolvingCombination(ctx.db, ctx.projectRoot());
  if (!row)
    throw refusal(
      "no-combine-pending",
      "no combine is waiting for resolution in this project; nothing changed",
      "start one with `docket combine <w> <w>`",
    );
  return row;
}

/** `--continue`: freezes what the human saved; refused while any marker remains (markers never reach the checkout). */
export function continueCombine(ctx: EngineContext): CombineResult {
  assertHuman(ctx, "combine");
  ctx.git.assertMergeTreeGit();
  const row = waiting(ctx);
  const s = recordedSources(ctx, row);
  const key = row.key;
  return ctx.git.withMerge(row.projectRoot, s[0], s[1], (m, ws) => {
    if (m.tree !== row.merge.tree)
      throw refusal(
        "combine-merge-changed",
        `the merge of ${s[0].ref} and ${s[1].ref} no longer gives the tree this combine started from; ` +
          "nothing was frozen",
        "drop it with `docket combine --abort` and combine again",
      );
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
        if (left.length > 0)
          problems.push(`${c.path} (line${left.length === 1 ? "" : "s"} ${left.slice(0, 5).join(", ")})`);
      }
      return { path: c.path, mode: c.mode, bytes: read.bytes };
    });
    if (problems.length > 0) {
      throw refusal(
        "conflict-markers",
        `conflict markers remain in ${problems.join("; ")}; nothing was frozen`,
        `edit the files in ${row.scratch}/files, or drop the combine with \`docket combine --abort\``,
      );
    }
    const final = ctx.git.treeWithFiles(ws, m.tree, files);
    const diff = ctx.git.diffTrees(ws, m.base, final);
    if (diff.patch === "")
      throw refusal(
        "combine-empty",
        "the resolved files leave nothing changed against the base; nothing was frozen",
        "edit the files again, or drop the combine with `docket combine --abort`",
      );
    assertNoResidue(s, diff.patch);
    const contested = m.contested.map((c) => c.path);
    const operation = `${row.id}:${sha(diff.patch)}`;
    const d = freeze(ctx, key, operation, combinedDeliverable(ctx, s, m, diff, { operation, contested }));
    const decisions = ctx.commands.run("combine.continue", { combination: row.id, operation }, (tx) => {
      if (!settleCombination(tx, row.id, { state: "frozen", resultRef: d.ref }))
        throw refusal("no-combine-pending", `${row.id} was settled meanwhile; nothing changed`);
      return closeSources(
        tx,
        s,
        d.ref,
        `${contested.length} contested file${contested.length === 1 ? "" : "s"} resolved by the human`,
      );
    }).result;
    removeScratch(ctx.home, row.scratch!);
    return {
      outcome: "combined" as const,
      combination: row.id,
      deliverable: { id: d.id, version: d.version, ref: d.ref },
      files: diff.files.map((f) => f.path),
      summary: `resolved ${contested.length} contested file${contested.length === 1 ? "" : "s"}`,
      decisions,
      notes: [
        `froze ${d.ref} from your resolution; ${s[0].ref} and ${s[1].ref} are closed as combined`,
        `review it with \`docket verdict ${d.ref}\`, then approve and promote it like any version`,
      ],
    };
  });
}

/** `--abort`: the waiting combine is dropped (its scratch folder deleted); both sources stay open, as they were. */
export function abortCombine(ctx: EngineContext): { combination: string; decisions: string[]; notes: string[] } {
  assertHuman(ctx, "combine");
  const row = waiting(ctx);
  const decisions = ctx.commands.run("combine.abort", { combination: row.id }, (tx) => {
    if (!settleCombination(tx, row.id, { state: "aborted" }))
      throw refusal("no-combine-pending", `${row.id} was settled meanwhile; nothing changed`);
    return row.sources.map(
      (src) =>
        insertDecision(tx, {
          actor: "human",
          verb: "combine-abort",
          worker: src.worker,
          deliverable: { id: deliverableId(src.worker), version: src.version, ref: src.ref },
          note: `combine ${row.id} dropped`,
          evidenceRefs: [src.ref],
          contentSha256: src.sha256,
        }).id,
    );
  }).result;
  if (row.scratch) removeScratch(ctx.home, row.scratch);
  return {
    combination: row.id,
    decisions,
    notes: [`dropped ${row.id}; ${row.sources.map((x) => x.ref).join(" and ")} stay open for review`],
  };
}
