// `docket ls` and `docket show`: the fleet a line a worker (grouped under best-of groups, with why each shows its
// state) and one worker in detail. Each renders the same result object for --json and humans.

import type { Command } from "commander";
import { shortRefOf } from "../../../domain/deliverables/refs.js";
import { quotePath } from "../../../domain/text/quote-path.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

/** `docket ls` and `docket show`. */
export function registerListing(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "ls")
    .option("--all", "every project's workers, including settled ones")
    .action(async (opts: { all?: boolean }) => {
      const { listWorkers } = await import("../../../engine/workers/view.js");
      const { formatBaseMoved } = await import("../../../domain/review/base-moved.js");
      const { formatWorkerCost } = await import("../../../domain/workers/spend.js");
      const { groupsOfWorkers } = await import("../../../engine/groups/listing.js");
      const { nestUnderGroups } = await import("../group-lines.js");
      const listing = listWorkers(engine(), { all: Boolean(opts.all) });
      const groups = groupsOfWorkers(engine());
      // Every fact the text shows is in the JSON row too: its age, what landed under it, its best-of group.
      const workers = listing.workers.map((w) => ({
        ...w,
        age: listing.ages.get(w.worker) ?? null,
        baseMoved: listing.baseMoved.get(w.worker) ?? null,
        group: groups.get(w.worker)?.group ?? null,
      }));
      // An empty list that hides settled workers (their processes may still run) says how many --all would show.
      const hidden =
        workers.length === 0 && !opts.all && !io.json ? listWorkers(engine(), { all: true }).workers.length : 0;
      emit(io, { workers }, (x) =>
        x.workers.length === 0
          ? hidden > 0
            ? `no unsettled workers in this project; \`docket ls --all\` lists ${hidden} more (settled, or in other projects)`
            : "no workers (start one with `docket spawn <task>`)"
          : [
              [
                "worker".padEnd(8),
                "state".padEnd(12),
                "kind".padEnd(11),
                "age".padEnd(5),
                "cost".padEnd(7),
                "task (questions, current version)",
              ].join(" "),
              ...nestUnderGroups(
                x.workers.map((w) => ({
                  worker: w.worker,
                  line:
                    [
                      w.worker.padEnd(5),
                      (w.liveness === "live" ? "●" : w.liveness === "gone" ? "○" : "?").padEnd(2),
                      w.state.padEnd(12),
                      w.kind.padEnd(11),
                      (w.age ?? "").padEnd(5),
                      formatWorkerCost(w.spend).padEnd(7),
                      w.questions ? `${w.questions}? ` : "",
                      w.deliverable ? `${shortRefOf(w.deliverable)} ` : "",
                      w.task.length > 60 ? `${w.task.slice(0, 57)}...` : w.task,
                      ...(w.baseMoved && formatBaseMoved(w.baseMoved) ? [`· ${formatBaseMoved(w.baseMoved)}`] : []),
                      ...(w.contained ? ["· contained"] : []),
                      ...(w.host !== undefined
                        ? [`· on ${w.host}${w.hostReachable === false ? " (unreachable)" : ""}`]
                        : []),
                    ].join(" ") +
                    // Why it shows that state: a failure's cause, its agent's words, the silence, a refused call.
                    (w.reason
                      ? `\n${"".padEnd(8)}${w.state}: ${w.reason.length > 160 ? `${w.reason.slice(0, 159)}…` : w.reason}`
                      : ""),
                })),
                groups,
              ),
            ],
      );
    });

  declareVerb(program, "show")
    .argument("<worker>", "w<N>")
    .action(async (target: string) => {
      const { showWorker } = await import("../../../engine/workers/view.js");
      const { formatSpend } = await import("../../../domain/workers/spend.js");
      const { destinationLine, networkLine } = await import("../../../domain/workers/network-summary.js");
      emit(io, showWorker(engine(), target), (w) => [
        `${w.worker} · ${w.kind} · ${w.state} (${w.persistedState}) · ${w.liveness} · generation ${w.generation}`,
        `  task: ${w.task}`,
        `  agent: ${w.agent}${w.execution.command ? ` (${w.execution.command})` : ""} · model ${w.execution.model ?? "-"} · thinking ${w.execution.thinking} · context ${w.execution.context}`,
        ...(w.modelInEffect
          ? [`  in effect: ${w.modelInEffect} · thinking ${w.thinkingInEffect ?? "-"} (heartbeat ${w.heartbeatAt})`]
          : []),
        `  workspace: ${w.workspace} (${w.workspaceMode}${w.base ? `, base ${w.base.slice(0, 12)}` : ""})`,
        `  contained: ${w.contained ? "yes (Docket's sandbox)" : "no"}`,
        ...[networkLine(w.network)].filter((l) => l !== undefined).map((l) => `  ${l}`),
        ...w.network.destinations.map((d) => `    ${destinationLine(d)}`),
        `  tmux: ${w.tmux.session ?? "-"} ${w.tmux.window ?? ""} ${w.tmux.pane ?? ""}`,
        ...(w.deliverable ? [`  deliverable: ${w.deliverable}`] : []),
        ...(w.reason && w.reason !== w.lastError ? [`  why ${w.state}: ${w.reason}`] : []),
        ...(w.lastError ? [`  last error: ${w.lastError}`] : []),
        ...w.findings.filter((f) => f.text !== w.reason).map((f) => `  ${f.kind} since ${f.at}: ${f.text}`),
        ...w.openQuestions.map((q) => `  question ${q.id}: ${q.text}`),
        ...w.launches.map(
          (l) =>
            `  launch g${l.generation} ${l.startedAt}${l.exitedAt ? ` exited ${l.exitCode} at ${l.exitedAt}` : ""}`,
        ),
        ...w.messages.map((m) => `  message ${m.id}: ${m.delivery} — ${m.what}`),
        ...(w.baseMoved
          ? [
              `  base moved: ${w.baseMoved.files.map(quotePath).join(", ")} landed since it started (${w.baseMoved.refs.join(", ")})`,
            ]
          : []),
        w.spend
          ? `  spend: ${formatSpend(w.spend)}${w.budget.usd !== null ? ` of a $${w.budget.usd.toFixed(2)} budget${w.budget.stoppedAt ? " (reached: agent stopped)" : w.budget.warnedAt ? " (80 % reached)" : ""}` : ""}`
          : `  spend: unknown (${w.spendDetail.unmeasured ?? "no records"})`,
        ...w.spendDetail.generations.map((g) => `    generation ${g.generation}: ${formatSpend(g.totals)}`),
        ...w.spendDetail.versions.map(
          (v) =>
            `    ${v.version <= (w.deliverable ? Number(w.deliverable.split(":").pop()) : 0) ? `v${v.version}` : `after the last version`}: ${formatSpend(v.totals)}`,
        ),
      ]);
    });
}

/** `docket peek`, `tell` and `attach`: looking at a worker and talking to it. */
