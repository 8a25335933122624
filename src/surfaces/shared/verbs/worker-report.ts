// `docket worker report`: per-item reports from a worker process (identity from DOCKET_WORKER_ID/GENERATION/RUN_TOKEN).
// One entry from flags or several from --file; the call commits every entry or none (a refusal names each refused entry).

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import { parseEvidenceFlag, type ReportEntryInput } from "../../../domain/work/report.js";
import { parseWorkerIdentity } from "../../../domain/workers/identity.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import { collect } from "./args.js";
import { engine } from "../session.js";
import { INPUT_CAP_TEXT } from "../../../engine/protocol/input.js";

interface ReportFlags {
  item?: string;
  outcome?: string;
  body?: string;
  evidence: string[];
  forHuman: string[];
  answers: string[];
  key?: string;
  file?: string;
}

export function registerWorkerReport(worker: Command, io: Io): void {
  worker
    .command("report")
    .description("report on dispatched items: done, released, abandoned or blocked, with an explanation")
    .option("--item <id>", "the item (t<N> or r<N>)")
    .option("--outcome <outcome>", "done | released | abandoned | blocked")
    .option("--body <text>", "what happened and where it landed (non-empty)")
    .option("--evidence <kind=text>", "commit|test|artifact|runtime|note=<text> (repeatable)", collect, [])
    .option("--for-human <line>", "a line for the human (repeatable)", collect, [])
    .option("--answers <reply-id=text>", "answer a human reply, e.g. t1.1=<text> (repeatable)", collect, [])
    .option("--key <key>", "idempotency key: repeating the same report returns the first result")
    .option("--file <json>", `several entries: a JSON array of {item, outcome, body, evidence?, forHuman?, answers?, key?} (a regular file or pipe, at most ${INPUT_CAP_TEXT})`)
    .action(async (flags: ReportFlags) => {
      const entryFlags = flags.item ?? flags.outcome ?? flags.body;
      if (flags.file !== undefined && (entryFlags !== undefined || flags.evidence.length || flags.forHuman.length || flags.answers.length)) {
        throw usageError("bad-flags", "--file cannot be combined with --item/--outcome/--body/--evidence/--for-human/--answers");
      }
      if (flags.file === undefined && flags.item === undefined) throw usageError("bad-flags", "name the item with --item <id>, or give entries with --file <json>");
      const who = parseWorkerIdentity(process.env);
      const { reportEntries } = await import("../../../engine/protocol/report.js");
      let entries: ReportEntryInput[];
      if (flags.file !== undefined) {
        const { loadReportFile } = await import("../../../engine/protocol/report-file.js");
        entries = loadReportFile(process.cwd(), flags.file).map((e) => ({ ...e, callId: e.callId ?? flags.key }));
      } else {
        entries = [
          {
            item: flags.item!,
            outcome: flags.outcome ?? "",
            body: flags.body ?? "",
            evidence: flags.evidence.map(parseEvidenceFlag),
            forHuman: flags.forHuman,
            answers: parseAnswers(flags.answers),
            callId: flags.key,
          },
        ];
      }
      const results = reportEntries(engine(), who, entries);
      emit(io, { results }, (r) => r.results.map((x) => `${x.item} ${x.status} (${x.reportId})`));
    });
}

export function registerWorkerReconcile(worker: Command, io: Io): void {
  worker
    .command("reconcile")
    .description("accept an item's current revision after it changed under you (then report against it)")
    .requiredOption("--item <id>", "the item (t<N> or r<N>)")
    .action(async (flags: { item: string }) => {
      const who = parseWorkerIdentity(process.env);
      const { reconcileItem } = await import("../../../engine/protocol/reconcile.js");
      emit(io, reconcileItem(engine(), who, flags.item), (r) => [
        `${r.item}: accepted revision ${r.previousRevision} → ${r.acceptedRevision}`,
        `  ${r.text}`,
        ...r.unansweredReplies.map((x) => `  unanswered reply ${x.id}: ${x.text}`),
      ]);
    });
}

function parseAnswers(values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf("=");
    const id = eq > 0 ? v.slice(0, eq).trim() : "";
    if (!/^[tr][1-9][0-9]*\.[1-9][0-9]*$/.test(id)) throw usageError("bad-flag", `--answers takes <reply-id>=<text>, e.g. t1.1=yes; got "${v}"`);
    out[id] = v.slice(eq + 1);
  }
  return out;
}

