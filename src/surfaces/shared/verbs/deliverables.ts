// `docket report <w|ref>` and `docket diff <w|ref>`: one exact frozen deliverable version, never live state.
// A missing or invalid sidecar is refused with what to do; there is no fallback to the workspace
// (docs/decisions/immutable-deliverables.md).

import { quotePath } from "../../../domain/text/quote-path.js";
import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import { parsePositiveInt } from "./args.js";
import type { EngineOpener } from "../session.js";
import type { DeliverableReport } from "../../../engine/review/deliverables.js";
import { declareVerb } from "./registry.js";

export function registerDeliverableCommands(program: Command, io: Io, engine: EngineOpener): void {
  // `--version N` belongs to the subcommand: without positional options the program's -V/--version would
  // swallow it anywhere on the line (lead: this belongs in main.ts; harmless to call twice).
  declareVerb(program, "report")
    .argument("<worker-or-ref>", "w<N>, w<N>:v<K> or worker-deliverable:w<N>:<K>")
    .option("--version <n>", "a specific version (default: the current one)", parsePositiveInt("--version"))
    .action(async (target: string, opts: { version?: number }) => {
      const { deliverableReport } = await import("../../../engine/review/deliverables.js");
      const r = deliverableReport(engine(), target, opts.version);
      const d = r.deliverable;
      const json = {
        worker: r.workerId,
        deliverable: r.pointer,
        outcome: d.outcome,
        summary: d.summary,
        body: d.body,
        evidence: d.evidence.map((e) => ({ kind: e.kind, text: e.text })),
        recommendations: d.recommendations,
        changeSet: d.changeSet
          ? {
              files: d.changeSet.files.map((f) => ({ path: f.path, additions: f.additions, deletions: f.deletions })),
              hunks: d.changeSet.hunks,
            }
          : null,
        planCoverage: r.planCoverage?.coverage ?? null,
      };
      emit(io, json, () => formatReport(r));
      await shownOn(io, engine, { worker: r.workerId, ...r.pointer });
    });

  declareVerb(program, "diff")
    .argument(
      "<worker-or-ref>",
      "w<N>, w<N>:v<K>, worker-deliverable:w<N>:<K>, or a stored deliverable:<id>:<v> / d<N>",
    )
    .option("--version <n>", "a specific version (default: the current one)", parsePositiveInt("--version"))
    .action(async (target: string, opts: { version?: number }) => {
      const { frozenPatchOf, shownPatch } = await import("../../../engine/review/frozen-patch.js");
      const r = frozenPatchOf(engine(), target, opts.version);
      const patch = r.patch;
      if (r.worker) await shownOn(io, engine, { worker: r.worker, ...r.deliverable });
      if (io.json) {
        emit(io, { worker: r.worker, deliverable: r.deliverable, patch }, () => "");
        return;
      }
      if (patch === "") {
        io.err(
          r.changeSet
            ? `${r.deliverable.ref} changed no files`
            : `${r.deliverable.ref} has no change set (read-only worker, or a record without one)`,
        );
        return;
      }
      // Text frozen as a binary patch is printed decoded, each such file named on stderr first.
      const shown = shownPatch(r);
      for (const path of shown.decoded)
        io.err(
          `! ${quotePath(path)} is text at the base but frozen as a binary patch; shown decoded (--json keeps the frozen bytes)`,
        );
      // Through the Io: its filter draws a worker's escapes visibly before `colorLine` adds Docket's own colours
      // (and inside pi a raw stdout write would overprint the TUI).
      io.out(shown.text, colorLine);
    });
}

/** The version this view displayed, for the bare-id judgment guard. */
async function shownOn(
  io: Io,
  engine: EngineOpener,
  version: { worker: string; ref: string; version: number },
): Promise<void> {
  const { recordShown } = await import("../../../engine/review/shown.js");
  recordShown(engine(), [version], io.parent ? "pi" : "cli");
}

function formatReport(r: DeliverableReport): string[] {
  const d = r.deliverable;
  const lines = [
    `${r.pointer.ref}  (${r.workerId}, v${r.pointer.version}, ${d.createdAt})`,
    `task:     ${r.task}`,
    `state:    ${r.worker.deletedAt ? `deleted (was ${r.state})` : r.state}`,
    `outcome:  ${d.outcome}`,
    `summary:  ${d.summary}`,
  ];
  if (d.evidence.length > 0) {
    lines.push("evidence:");
    for (const kind of [...new Set(d.evidence.map((e) => e.kind))]) {
      lines.push(`  ${kind}:`, ...d.evidence.filter((e) => e.kind === kind).map((e) => `    - ${e.text}`));
    }
  } else lines.push("evidence: none given");
  if (d.recommendations.length > 0) lines.push("recommendations:", ...d.recommendations.map((t) => `  - ${t}`));
  if (r.items.length > 0)
    lines.push(
      "items:",
      ...r.items.map((i) => `  ${i.item} ${i.outcome} → ${i.status}${i.reportId ? ` (${i.reportId})` : ""}`),
    );
  if (d.changeSet === null) lines.push("files:    no change set (read-only worker)");
  else if (d.changeSet.files.length === 0) lines.push("files:    none changed");
  else {
    lines.push(
      `files:    ${d.changeSet.files.length} (${d.changeSet.hunks} hunk${d.changeSet.hunks === 1 ? "" : "s"})`,
    );
    lines.push(
      ...d.changeSet.files.map(
        (f) => `  ${f.binary ? "binary" : `+${f.additions} -${f.deletions}`.padEnd(12)} ${quotePath(f.path)}`,
      ),
    );
  }
  const pc = r.planCoverage;
  if (pc) {
    lines.push(`${pc.warning ? "⚠ " : ""}${pc.line}`);
    if (pc.coverage.offPlan.length > 0) lines.push(`  off-plan: ${pc.coverage.offPlan.map(quotePath).join(", ")}`);
    if (pc.coverage.untouched.length > 0)
      lines.push(`  planned but untouched: ${pc.coverage.untouched.map(quotePath).join(", ")}`);
  }
  lines.push("", "─── body ───", d.body);
  return lines;
}

/** One patch line (already filtered) in its colour: file headers bold, hunk heads cyan, additions green, deletions red. */
function colorLine(l: string): string {
  return l.startsWith("diff --git")
    ? `\x1b[1m${l}\x1b[0m`
    : l.startsWith("@@")
      ? `\x1b[36m${l}\x1b[0m`
      : l.startsWith("+") && !l.startsWith("+++")
        ? `\x1b[32m${l}\x1b[0m`
        : l.startsWith("-") && !l.startsWith("---")
          ? `\x1b[31m${l}\x1b[0m`
          : l;
}
