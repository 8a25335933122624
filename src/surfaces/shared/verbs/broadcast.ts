// `docket broadcast` and `docket journal`: tell the workers a change concerns (scored, confirmed by the human, never by
// typing worker ids), or post it to the project journal every worker reads; list that journal.

import { quotePath } from "../../../domain/text/quote-path.js";
import type { Command } from "commander";
import { refusal, usageError } from "../../../domain/errors.js";
import type { BroadcastPlan, BroadcastSent } from "../../../engine/talk/broadcast.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { parsePositiveInt } from "./args.js";
import { declareVerb } from "./registry.js";

interface BroadcastFlags {
  from?: string;
  yes?: boolean;
  includeMaybe?: boolean;
  journal?: boolean;
  dryRun?: boolean;
}

const BAND_MARK: Record<string, string> = { affected: "▪", maybe: "▫", unrelated: " " };

function planLines(plan: BroadcastPlan): string[] {
  if (plan.rows.length === 0) return ["no running workers in this project"];
  return [
    ...plan.rows.map(
      (r) =>
        `${BAND_MARK[r.band]} ${r.worker.padEnd(5)} ${r.band.padEnd(9)} ${r.kind.padEnd(11)} ${r.task.length > 40 ? `${r.task.slice(0, 39)}…` : r.task.padEnd(40)}  ${r.reason}`,
    ),
    ...refusedLines(plan),
  ];
}

/** A worker whose workspace Docket would not run git in is named, with the refusal: its live edits were not read. */
function refusedLines(plan: BroadcastPlan): string[] {
  return plan.refused.map(
    (r) => `! ${r.worker}: ${r.code}: its live edits were left out (scored on what it recorded): ${r.message}`,
  );
}

const list = (ws: readonly string[]) => ws.join(", ");

/** On a terminal: the human picks who gets it from the scored rows (no ids typed). Undefined: cancelled. */
async function choose(io: Io, plan: BroadcastPlan): Promise<{ send: string[] } | { journal: true } | undefined> {
  const options: { label: string; pick: { send: string[] } | { journal: true } }[] = [];
  if (plan.affected.length > 0)
    options.push({
      label: `send to the ${plan.affected.length} affected: ${list(plan.affected)}`,
      pick: { send: plan.affected },
    });
  if (plan.maybe.length > 0) {
    const both = [...plan.affected, ...plan.maybe];
    options.push({
      label:
        plan.affected.length > 0
          ? `send to affected and maybe: ${list(both)}`
          : `send to the ${plan.maybe.length} maybe: ${list(plan.maybe)}`,
      pick: { send: both },
    });
  }
  options.push({
    label:
      plan.affected.length === 0
        ? "nothing is affected: post it to the project journal instead"
        : "post it to the project journal instead",
    pick: { journal: true },
  });
  const chosen = await io.select("Broadcast: who gets it?", [...options.map((o) => o.label), "cancel"]);
  return options.find((o) => o.label === chosen)?.pick;
}

export function registerBroadcastCommands(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "broadcast")
    .argument("[text...]", "what they should know (paths it names are matched against what each worker touched)")
    .option("--from <note>", "forward a worker's note (n<N> or nt<N>): its text, suggested recipients and standing")
    .option("--yes", "send to the affected workers without asking (with --include-maybe: the maybe rows too)")
    .option("--include-maybe", "with --yes: also send to the workers scored maybe")
    .option("--journal", "post it to the project journal (every worker can read it) instead of sending it")
    .option("--dry-run", "only show how each worker scores; send nothing")
    .addHelpText(
      "after",
      "\nDelivered at each worker's next turn, without interrupting it; a broadcast never answers a worker's question.",
    )
    .action(async (words: string[], flags: BroadcastFlags) => {
      if (flags.includeMaybe && !flags.yes)
        throw usageError("bad-flags", "--include-maybe goes with --yes; on a terminal you choose the rows instead");
      if (flags.journal && (flags.yes || flags.dryRun))
        throw usageError("bad-flags", "--journal posts instead of sending; drop --yes/--dry-run");
      const { planBroadcast, sendBroadcast } = await import("../../../engine/talk/broadcast.js");
      const { postToJournal } = await import("../../../engine/talk/journal.js");
      const ctx = engine();
      const plan = planBroadcast(ctx, { text: words.length > 0 ? words.join(" ") : undefined, from: flags.from });
      const rows = plan.rows.map((r) => ({
        worker: r.worker,
        band: r.band,
        reason: r.reason,
        kind: r.kind,
        task: r.task,
      }));
      let sent: BroadcastSent[] = [];
      let journal: string | null = null;
      const postJournal = () => {
        const from = plan.note ? plan.note.worker : "you";
        journal = postToJournal(ctx, {
          text: plan.journalText,
          from,
          kind: plan.note ? "note" : "broadcast",
          workers: plan.note ? [plan.note.worker] : [],
        }).entry;
      };
      if (flags.dryRun) {
        // Scoring only.
      } else if (flags.journal) postJournal();
      else if (flags.yes) {
        const to = [...plan.affected, ...(flags.includeMaybe ? plan.maybe : [])];
        if (to.length === 0) {
          throw refusal(
            "nothing-affected",
            `no running worker is affected${flags.includeMaybe ? " or maybe affected" : ""}; nothing was sent`,
            "post it to the project journal with `docket broadcast --journal <text>`",
          );
        }
        sent = sendBroadcast(ctx, { body: plan.body, workers: to });
      } else if (io.interactive) {
        io.err(planLines(plan).join("\n"));
        const pick = await choose(io, plan);
        if (!pick) throw refusal("broadcast-cancelled", "broadcast cancelled; nothing was sent");
        if ("journal" in pick) postJournal();
        else sent = sendBroadcast(ctx, { body: plan.body, workers: pick.send });
      } else {
        throw refusal(
          "broadcast-needs-confirmation",
          `broadcast needs your choice of recipients (affected: ${plan.affected.length > 0 ? list(plan.affected) : "none"}); nothing was sent`,
          "re-run on a terminal to choose, pass --yes to send to the affected workers, --journal to post it, or --dry-run to see the scores",
        );
      }
      emit(io, { rows, refused: plan.refused, sent, journal }, (x) => [
        ...(io.interactive && !flags.yes && !flags.dryRun && !flags.journal ? [] : planLines(plan)),
        ...x.sent.map(
          (s) =>
            `${s.message} ${s.delivery === "delivered" ? "pasted into" : "queued for"} ${s.worker} · read at its next turn, without interrupting it`,
        ),
        ...(x.journal ? [`${x.journal} posted to the project journal (docket journal)`] : []),
        ...(flags.dryRun ? ["dry run: nothing was sent"] : []),
      ]);
    });

  declareVerb(program, "journal")
    .option("--limit <n>", "newest entries to show (default 20)", parsePositiveInt("--limit"))
    .action(async (opts: { limit?: number }) => {
      const limit = opts.limit ?? 20;
      const { readJournal } = await import("../../../engine/talk/journal.js");
      const view = readJournal(engine());
      const entries = view.entries.slice(-limit).reverse();
      emit(io, { project: view.project, file: view.file, entries }, (x) => [
        `Project journal · ${x.project} · ${view.entries.length} entr${view.entries.length === 1 ? "y" : "ies"} · workers read ${x.file}`,
        ...(x.entries.length === 0 ? ["  nothing has landed or been posted yet"] : []),
        ...x.entries.flatMap((e) => [
          `  ${e.at} ${e.id} ${e.kind} · from ${e.from}${e.ref ? ` · ${e.ref}` : ""}`,
          `    ${e.text.split("\n")[0]}`,
          ...(e.paths.length > 0 ? [`    ${e.paths.map(quotePath).join(", ")}`] : []),
        ]),
      ]);
    });
}
