// `docket worker todos|wait|done|fail|consult|note`: the worker protocol's CLI door for agents that are not pi workers.
// Same fields and engine calls as the pi tools, run by the worker's door; identity and socket from the environment
// (docs/decisions/worker-protocol.md, docs/door.md).

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import { parseEvidenceFlag } from "../../../domain/work/report.js";
import type { DoneResult, TodosResult, WaitResult } from "../../../engine/protocol/protocol.js";
import type { ConsultResult, NoteResult } from "../../../engine/protocol/consult.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import { collect } from "./args.js";
import { callDoor, doorOf, freshCallId } from "../door-client.js";
import { INPUT_CAP_TEXT, readInputText, readStdinText, stdinIsTerminal } from "../door-input.js";

interface DoneFlags {
  outcome?: string;
  summary?: string;
  evidence: string[];
  recommend: string[];
  addressed: string[];
  itemsFile?: string;
  bodyFile?: string;
  callId?: string;
}

interface WaitFlags {
  question?: string;
  option: string[];
  recommend?: string;
  risk?: string;
  blockedFile?: string;
  callId?: string;
}

const sent = (path: string | undefined, flag: string) =>
  path === undefined ? undefined : { path, text: readInputText(path, flag, { json: true }) };

export function registerWorkerProtocol(worker: Command, io: Io): void {
  registerHandoffs(worker, io);
  registerAsides(worker, io);
  registerFailure(worker, io);
}

/** `docket worker done` and `wait`: a version or a question handed to the human (ready, needs_input). */
function registerHandoffs(worker: Command, io: Io): void {
  worker
    .command("done")
    .description("publish one frozen deliverable version (body from --body-file or standard input) → ready")
    .option("--outcome <outcome>", "completed | findings | proposal")
    .option("--summary <text>", "one line for the human (default: the body's first line)")
    .option("--evidence <kind=text>", "commit|test|artifact|runtime|note=<text> (repeatable)", collect, [])
    .option("--recommend <text>", "a recommendation for the human (repeatable)", collect, [])
    .option(
      "--addressed <cm=note>",
      "your answer to a review comment of the revision you worked on: cm3=what you did (repeatable)",
      collect,
      [],
    )
    .option(
      "--items-file <json>",
      `per-item reports: a JSON array of {item, outcome, body, evidence?, forHuman?, answers?} (a regular file or pipe, at most ${INPUT_CAP_TEXT})`,
    )
    .option(
      "--body-file <file>",
      `the full deliverable text, a regular file or pipe of at most ${INPUT_CAP_TEXT} (default: standard input, same limit; '-' also means standard input)`,
    )
    .option("--call-id <id>", "plays the tool-call id: the same id returns the same version (fresh when absent)")
    .action(async (flags: DoneFlags) => {
      if (flags.outcome === undefined) throw usageError("bad-flags", "give --outcome completed|findings|proposal");
      const door = doorOf(process.env);
      const evidence = flags.evidence.map(parseEvidenceFlag);
      const body =
        flags.bodyFile !== undefined && flags.bodyFile !== "-"
          ? readInputText(flags.bodyFile, "--body-file")
          : readStdin();
      const result = await callDoor<DoneResult>(door, "done", {
        callId: flags.callId ?? freshCallId("done"),
        body,
        outcome: flags.outcome,
        summary: flags.summary,
        evidence,
        recommendations: flags.recommend,
        itemsFile: sent(flags.itemsFile, "--items-file"),
        addressed: flags.addressed.map(parseAddressedFlag),
      });
      emit(io, result, (r) => [
        `${door.who.worker} published ${r.deliverable.ref} (v${r.deliverable.version}) → ready`,
        ...r.items.map((x) => `${x.item} ${x.status} (${x.reportId})`),
      ]);
    });

  worker
    .command("wait")
    .description("ask the human one question → needs_input (optionally naming items you are blocked on)")
    .option("--question <text>", "the one question")
    .option("--option <text>", "a possible answer (repeatable)", collect, [])
    .option("--recommend <text>", "the answer you recommend")
    .option("--risk <text>", "what goes wrong with the wrong answer")
    .option(
      "--blocked-file <json>",
      `items you are blocked on: a JSON array of {item, body} (a regular file or pipe, at most ${INPUT_CAP_TEXT})`,
    )
    .option("--call-id <id>", "idempotency: repeating the same call id returns the first result")
    .action(async (flags: WaitFlags) => {
      if (flags.question === undefined) throw usageError("bad-flags", "give the question with --question <text>");
      const door = doorOf(process.env);
      const result = await callDoor<WaitResult>(door, "wait", {
        question: flags.question,
        options: flags.option,
        recommend: flags.recommend,
        risk: flags.risk,
        callId: flags.callId ?? freshCallId("wait"),
        blockedFile: sent(flags.blockedFile, "--blocked-file"),
      });
      emit(io, result, (r) => [
        `${door.who.worker} asked ${r.question} → needs_input`,
        ...r.blocked.map((x) => `${x.item} blocked (${x.reportId})`),
      ]);
    });
}

/** `docket worker todos`, `consult` and `note`: a progress board, a question of fact, a notice for the human. */
function registerAsides(worker: Command, io: Io): void {
  worker
    .command("todos")
    .description("replace your progress board (informational; never a gate)")
    .argument("[texts...]", "pending items, in order (or use --items-file)")
    .option(
      "--items-file <json>",
      `the board: a JSON array of {id?, text, state?: pending|in_progress|completed} (a regular file or pipe, at most ${INPUT_CAP_TEXT})`,
    )
    .action(async (texts: string[], flags: { itemsFile?: string }) => {
      if (flags.itemsFile !== undefined && texts.length > 0)
        throw usageError("bad-flags", "give the board as words or with --items-file, not both");
      const door = doorOf(process.env);
      const itemsFile = sent(flags.itemsFile, "--items-file");
      const result = await callDoor<TodosResult>(
        door,
        "todos",
        itemsFile
          ? { itemsFile, callId: freshCallId("todos") }
          : { items: texts.map((text) => ({ text })), callId: freshCallId("todos") },
      );
      emit(io, result, (r) => [
        ...r.todos.map(
          (t) => `${t.state === "completed" ? "[x]" : t.state === "in_progress" ? "[>]" : "[ ]"} ${t.id} ${t.text}`,
        ),
        ...(r.dropped > 0 ? [`(${r.dropped} dropped: empty or beyond 12)`] : []),
      ]);
    });

  worker
    .command("consult")
    .description(
      "ask the parent agent a question of fact → needs_input (the human answers it when the consult lane is off)",
    )
    .option(
      "--question <text>",
      "the one question of fact (never permission, scope, risk or anything irreversible: use wait)",
    )
    .option("--context <text>", "what you already know and why you ask")
    .option("--option <text>", "a possible answer (repeatable)", collect, [])
    .option("--recommend <text>", "the answer you expect")
    .option("--call-id <id>", "idempotency: repeating the same call id returns the first result")
    .action(
      async (flags: { question?: string; context?: string; option: string[]; recommend?: string; callId?: string }) => {
        if (flags.question === undefined) throw usageError("bad-flags", "give the question with --question <text>");
        const door = doorOf(process.env);
        const result = await callDoor<ConsultResult>(door, "consult", {
          question: flags.question,
          options: flags.option,
          ...(flags.context !== undefined ? { context: flags.context } : {}),
          ...(flags.recommend !== undefined ? { recommend: flags.recommend } : {}),
          callId: flags.callId ?? freshCallId("consult"),
          what: "docket worker consult",
        });
        emit(
          io,
          result,
          (r) =>
            `${door.who.worker} consulted ${r.audience === "parent-agent" ? "the parent agent" : "the human (the consult lane is off)"}: ${r.question} → needs_input`,
        );
      },
    );

  worker
    .command("note")
    .description("leave the human a notice (changes nothing; reaches no other worker unless the human forwards it)")
    .argument("<text...>", "the notice")
    .option("--to <w>", "a worker you suggest the human tells (repeatable; a suggestion only)", collect, [])
    .option("--call-id <id>", "idempotency: repeating the same call id returns the first result")
    .action(async (words: string[], flags: { to: string[]; callId?: string }) => {
      const door = doorOf(process.env);
      const result = await callDoor<NoteResult>(door, "note", {
        text: words.join(" "),
        to: flags.to,
        callId: flags.callId ?? freshCallId("note"),
        what: "docket worker note",
      });
      emit(
        io,
        result,
        (r) =>
          `${door.who.worker} noted ${r.note} for the human${r.suggested.length > 0 ? ` (suggested for ${r.suggested.join(", ")})` : ""}`,
      );
    });
}

/** `docket worker fail`: giving up, with the reason. */
function registerFailure(worker: Command, io: Io): void {
  worker
    .command("fail")
    .description("give up: → failed, no deliverable")
    .option("--reason <text>", "what stopped you")
    .action(async (flags: { reason?: string }) => {
      if (flags.reason === undefined) throw usageError("bad-flags", "give --reason <text>");
      const door = doorOf(process.env);
      const result = await callDoor(door, "fail", { reason: flags.reason, callId: freshCallId("fail") });
      emit(io, result, () => `${door.who.worker} → failed`);
    });
}

function readStdin(): string {
  if (stdinIsTerminal())
    throw usageError("no-body", "give the deliverable body with --body-file <file> or on standard input");
  return readStdinText();
}

/** `cm3=what I did` → {comment, note}; the engine checks the id and the note. */
function parseAddressedFlag(value: string): { comment: string; note: string } {
  const eq = value.indexOf("=");
  if (eq <= 0)
    throw usageError("bad-flag", `--addressed takes <comment id>=<note>, e.g. cm3=renamed it; got "${value}"`);
  return { comment: value.slice(0, eq), note: value.slice(eq + 1) };
}
