// `docket worker report`: per-item reports from a worker process, through its door (identity from its environment).
// One entry from flags or several from --file; each entry is its own command with its own key (a retry lands it once).

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import { parseEvidenceFlag } from "../../../domain/work/report.js";
import type { ReportEntryResult } from "../../../engine/protocol/report.js";
import type { ReconcileResult } from "../../../engine/protocol/reconcile.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import { collect } from "./args.js";
import { callDoor, doorOf, freshCallId } from "../door-client.js";
import { INPUT_CAP_TEXT, readInputText } from "../door-input.js";

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
    .option(
      "--file <json>",
      `several entries: a JSON array of {item, outcome, body, evidence?, forHuman?, answers?, key?} (a regular file or pipe, at most ${INPUT_CAP_TEXT})`,
    )
    .action(async (flags: ReportFlags) => {
      const entryFlags = flags.item ?? flags.outcome ?? flags.body;
      if (
        flags.file !== undefined &&
        (entryFlags !== undefined || flags.evidence.length || flags.forHuman.length || flags.answers.length)
      ) {
        throw usageError(
          "bad-flags",
          "--file cannot be combined with --item/--outcome/--body/--evidence/--for-human/--answers",
        );
      }
      if (flags.file === undefined && flags.item === undefined)
        throw usageError("bad-flags", "name the item with --item <id>, or give entries with --file <json>");
      const door = doorOf(process.env);
      // Without --key a fresh one: a retry after the door died mid-stream lands each entry exactly once.
      const key = flags.key ?? freshCallId("report");
      const request =
        flags.file !== undefined
          ? { file: { path: flags.file, text: readInputText(flags.file, "--file", { json: true }) }, key }
          : {
              entries: [
                {
                  item: flags.item!,
                  outcome: flags.outcome ?? "",
                  body: flags.body ?? "",
                  evidence: flags.evidence.map(parseEvidenceFlag),
                  forHuman: flags.forHuman,
                  answers: parseAnswers(flags.answers),
                  callId: key,
                },
              ],
            };
      const { results } = await callDoor<{ results: ReportEntryResult[] }>(door, "report", request);
      emit(io, { results }, (r) => r.results.map((x) => `${x.item} ${x.status} (${x.reportId})`));
    });
}

export function registerWorkerReconcile(worker: Command, io: Io): void {
  worker
    .command("reconcile")
    .description("accept an item's current revision after it changed under you (then report against it)")
    .requiredOption("--item <id>", "the item (t<N> or r<N>)")
    .action(async (flags: { item: string }) => {
      const door = doorOf(process.env);
      emit(io, await callDoor<ReconcileResult>(door, "reconcile", { item: flags.item }), (r) => [
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
    if (!/^[tr][1-9][0-9]*\.[1-9][0-9]*$/.test(id))
      throw usageError("bad-flag", `--answers takes <reply-id>=<text>, e.g. t1.1=yes; got "${v}"`);
    out[id] = v.slice(eq + 1);
  }
  return out;
}
