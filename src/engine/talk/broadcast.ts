// `docket broadcast`: score every running worker of the project by what the text names and what each worker touched,
// then deliver to the workers the human confirmed, at their next turn and without interrupting one.

import { DocketError, notFound, refusal, validationError } from "../../domain/errors.js";
import {
  broadcastSubject,
  scoreBroadcast,
  type BroadcastCandidate,
  type BroadcastRow,
} from "../../domain/talk/broadcast-scoring.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import { quoteBlock } from "../../domain/text/fence.js";
import { assertNoControlCharacters, normalizeMessageText } from "../../domain/work/message-text.js";
import { insertMessage } from "../../ledger/talk/messages.js";
import { getNote, type NoteRow } from "../../ledger/talk/notes.js";
import { touchesOf } from "../../ledger/workers/touched-paths.js";
import type { Worker } from "../../domain/workers/worker.js";
import { workersOf } from "../../ledger/workers/fleet-reads.js";
import { getWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { assertHuman } from "../authority.js";
import { plannedFiles } from "../review/base-moved.js";
import { approvalOf, promotionOf } from "../review/target.js";
import { pointerOf } from "../review/deliverables.js";
import { pasteToCommandWorker } from "./command-paste.js";
import { placeOf } from "../places/place.js";

/** States of a running worker: a broadcast is for workers still at work (a finished one has nothing to change). */
const RUNNING = ["starting", "active", "idle", "needs_input"];

export interface BroadcastInput {
  text?: string;
  /** A worker's note (`n<N>` notification or `nt<N>` note) to forward: its text, suggested recipients and standing. */
  from?: string;
}

export interface BroadcastPlan {
  /** The exact body each recipient gets: a worker's note in it is a quote block, so it cannot forge a frame of Docket's. */
  body: string;
  /** What the project journal records (the note unquoted: the journal quotes every worker's text itself). */
  journalText: string;
  rows: BroadcastRow[];
  affected: string[];
  maybe: string[];
  /** The note forwarded, when `from` named one. */
  note: NoteRow | null;
  /** Workers whose workspace Docket refused to run git in: scored on their recorded edits only, named with the refusal. */
  refused: BroadcastRefusal[];
}

/** A worker whose live edits were left out, and why (`workspace-git-tampered`, or the workspace could not be read). */
export interface BroadcastRefusal {
  worker: string;
  code: string;
  message: string;
}

function runningWorkers(ctx: EngineContext): Worker[] {
  return workersOf(ctx.db, { projectRoot: ctx.projectRoot() }).filter((r) => !r.exited && RUNNING.includes(r.state));
}

/**
 * What each worker is known to have changed (recorded edits, frozen files, live edits), read, and planned. A workspace
 * whose live edits cannot be read (its `.git` is not Docket's: no git ran there) is scored on its recorded edits and
 * pushed onto `refused` with the refusal's code.
 */
export function broadcastCandidates(
  ctx: EngineContext,
  rows: readonly Worker[],
  refused: BroadcastRefusal[] = [],
): BroadcastCandidate[] {
  const touches = touchesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const t = touches.get(r.id)!;
    let live: string[] = [];
    if (r.workspaceMode === "isolated" && r.base) {
      try {
        live = placeOf(ctx, r).liveChangedPaths(r);
      } catch (error) {
        const code = error instanceof DocketError ? error.code : "workspace-unreadable";
        refused.push({ worker: r.id, code, message: (error as Error).message.split("\n")[0]! });
      }
    }
    return {
      worker: r.id,
      kind: r.kind,
      task: r.task,
      edited: [...new Set([...t.edit, ...live])],
      read: t.read,
      planned: [...plannedFiles(ctx, r)],
    };
  });
}

/** How the note's author stands, so recipients know what they are told about, never overclaiming. */
function standing(ctx: EngineContext, note: NoteRow): string {
  const w = getWorker(ctx.db, note.worker);
  const ref = w?.deliverableRef;
  if (!ref) return `${note.worker} · a note, not reviewed`;
  const pointer = pointerOf(w)!;
  if (promotionOf(ctx.db, ref)) return `${note.worker} · ${ref} promoted into the project`;
  return approvalOf(ctx.db, pointer)
    ? `${note.worker} · ${ref} approved, not promoted`
    : `${note.worker} · in its worktree, not promoted`;
}

/** Reads and scores; changes nothing. */
export function planBroadcast(ctx: EngineContext, input: BroadcastInput): BroadcastPlan {
  assertHuman(ctx, "broadcast");
  let note: NoteRow | null = null;
  if (input.from !== undefined) {
    note = getNote(ctx.db, input.from.trim()) ?? null;
    if (!note)
      throw notFound(
        "note-not-found",
        `no note ${input.from}; a worker's note is n<N> (its notification) or nt<N>`,
        "`docket attention` lists notes",
      );
  }
  const given = input.text === undefined ? "" : normalizeMessageText(input.text);
  const text = given || note?.text || "";
  if (!text)
    throw validationError("empty-message", "the broadcast is empty; say what the affected workers should know");
  assertNoControlCharacters(text, "broadcast");
  const fromNote = note !== null && !given;
  const journalText = note ? `${text}\n\n(from ${standing(ctx, note)})` : text;
  const body = note ? `${fromNote ? quoteBlock(text) : text}\n\n(from ${standing(ctx, note)})` : text;
  const rows = runningWorkers(ctx);
  const extra = note ? touchesOf(ctx.db, [note.worker]).get(note.worker)!.edit : [];
  const subject = broadcastSubject(text, {
    projectRoot: ctx.projectRoot(),
    extraPaths: extra,
    ...(note ? { addressed: note.suggested, from: note.worker } : {}),
  });
  const refused: BroadcastRefusal[] = [];
  const scored = scoreBroadcast(subject, broadcastCandidates(ctx, rows, refused));
  return {
    body,
    journalText,
    rows: scored,
    note,
    refused,
    affected: scored.filter((r) => r.band === "affected").map((r) => r.worker),
    maybe: scored.filter((r) => r.band === "maybe").map((r) => r.worker),
  };
}

export interface BroadcastSent {
  worker: string;
  message: string;
  delivery: "queued" | "delivered";
}

/** Queues one `broadcast` message per recipient (delivered at its next turn), all in one command. */
export function sendBroadcast(
  ctx: EngineContext,
  input: { body: string; workers: readonly string[] },
): BroadcastSent[] {
  assertHuman(ctx, "broadcast");
  const workers = [...new Set(input.workers.map((w) => normalizeWorkerId(w) ?? w))];
  if (workers.length === 0)
    throw refusal(
      "nothing-affected",
      "no worker was chosen; nothing was sent",
      "post it to the project journal with `docket broadcast --journal <text>`",
    );
  const queued = ctx.commands.run("broadcast.send", { body: input.body, workers }, (tx) =>
    workers.map((worker) => {
      const row = getWorker(tx.db, worker);
      if (!row || row.projectRoot !== ctx.projectRoot() || row.exited || !RUNNING.includes(row.state)) {
        throw refusal("not-running", `${worker} is not a running worker of this project; nothing was sent`);
      }
      return {
        worker,
        message: insertMessage(tx, { worker, kind: "broadcast", body: input.body, deliverAs: "nextTurn" }),
      };
    }),
  ).result;
  return queued.map((q) => ({
    ...q,
    delivery: pasteToCommandWorker(ctx, q.worker, q.message, input.body)?.pasted ? "delivered" : "queued",
  }));
}
