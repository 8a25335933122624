// Talking to and looking at a worker: `tell` (through the ledger inbox), `peek` (bounded pane capture), `attach`.
// Multi-line text stays one message; a reply bound to a question resolves that question only.

import { placeOf } from "../places/place.js";
import { optionalKey } from "../../domain/idempotency.js";
import { notFound, refusal, usageError, validationError } from "../../domain/errors.js";
import { assertNoControlCharacters, normalizeMessageText } from "../../domain/work/message-text.js";
import { WORKER_FILES, readWorkerTail } from "../../files/workers/worker-files.js";
import { insertMessage } from "../../ledger/talk/messages.js";
import { answerQuestion, getQuestion, openQuestionsOf } from "../../ledger/workers/questions.js";
import { transition } from "../../domain/workers/lifecycle.js";
import { applyLifecycle, lifecycleRowOf, requireWorker } from "../../ledger/workers/workers.js";
import { workerIdentityIn } from "../../domain/authority.js";
import type { EngineContext } from "../context.js";
import { resolveWorkerId } from "../workers/view.js";
import { pasteToCommandWorker } from "./command-paste.js";
import { assertHuman } from "../authority.js";

export interface TellInput {
  worker: string;
  text: string;
  question?: string;
  /** Deliver after the current turn (followUp) instead of steering it. */
  after?: boolean;
  key?: string;
}

export interface TellResult {
  message: string;
  /** `delivered` once pasted into a command worker's pane; otherwise queued until its inbox reader claims it. */
  delivery: "queued" | "delivered";
  /** The worker's process has exited: the message waits in its inbox for a respawn. */
  waiting: boolean;
  /** Set for command-agent workers: the text was also pasted into the pane, without any receipt. */
  pasted?: "best-effort" | "failed";
}

export function tellWorker(ctx: EngineContext, input: TellInput): TellResult {
  assertHuman(ctx, "tell");
  const worker = resolveWorkerId(input.worker);
  const body = normalizeMessageText(input.text);
  if (!body)
    throw validationError(
      "empty-message",
      "the message is empty; say something to the worker",
      `\`docket tell ${worker} "<text>"\``,
    );
  assertNoControlCharacters(body, "message");
  const question = input.question?.trim();
  const queued = ctx.commands.run(
    "tell",
    { worker, body, question, after: Boolean(input.after) },
    (tx) => {
      const row = requireWorker(tx.db, worker);
      if (question) {
        const q = getQuestion(tx.db, question);
        if (!q || q.worker !== worker)
          throw notFound(
            "question-not-found",
            `${worker} has no question ${question}`,
            `\`docket show ${worker}\` lists its open questions`,
          );
        if (!answerQuestion(tx, question, body))
          throw refusal("question-not-open", `question ${question} is already ${q.state}; nothing was sent`);
        applyLifecycle(
          tx,
          worker,
          transition(
            lifecycleRowOf(row),
            { kind: "answered", openQuestions: openQuestionsOf(tx.db, worker).length },
            tx.now,
          ),
        );
      }
      const message = insertMessage(tx, {
        worker,
        kind: question ? "answer" : "tell",
        body,
        question,
        deliverAs: input.after ? "followUp" : "steer",
      });
      return { message, exited: row.exited };
    },
    { key: optionalKey({ tool: "tell", callId: input.key }) },
  ).result;
  const result: TellResult = { message: queued.message, delivery: "queued", waiting: queued.exited };
  const paste = pasteToCommandWorker(ctx, worker, queued.message, body);
  if (paste?.pasted) Object.assign(result, { pasted: "best-effort", delivery: "delivered" });
  else if (paste) result.pasted = "failed"; // the inbox copy is the record
  return result;
}

export const PEEK_DEFAULT_LINES = 40;
export const PEEK_MAX_LINES = 2000;
/** The most a peek reads of a harvested pane tail: its end only (2,000 lines of 512 bytes), whatever the file's size. */
const PANE_TAIL_READ_BYTES = 1 << 20;

export interface PeekResult {
  worker: string;
  source: "pane" | "pane-tail";
  lines: number;
  text: string;
}

export function peekWorker(ctx: EngineContext, target: string, lines = PEEK_DEFAULT_LINES): PeekResult {
  if (!Number.isInteger(lines) || lines < 1 || lines > PEEK_MAX_LINES) {
    throw usageError("bad-lines", `--lines must be between 1 and ${PEEK_MAX_LINES}; got ${lines}`);
  }
  // Another worker's pane may show what it printed (secrets included): a worker reads no pane, its own neither.
  const identity = workerIdentityIn(ctx.env);
  if (identity.length > 0) {
    throw refusal(
      "worker-cannot-peek",
      `peek is the human's: this process carries a worker identity (${identity.join(", ")}); a worker reads no pane, its own included; nothing was shown`,
      "a worker speaks only through its protocol calls; ask the human",
    );
  }
  const row = requireWorker(ctx.db, resolveWorkerId(target));
  const tmux = placeOf(ctx, row).tmux();
  if (row.paneId && tmux.paneState(row.paneId, row.id) !== "missing") {
    return { worker: row.id, source: "pane", lines, text: tmux.capture(row.paneId, lines) };
  }
  const tail = readWorkerTail(ctx.home, row.id, WORKER_FILES.paneTail, PANE_TAIL_READ_BYTES);
  if (tail !== undefined) {
    const text = tail.replace(/\n$/, "").split("\n").slice(-lines).join("\n");
    return { worker: row.id, source: "pane-tail", lines, text };
  }
  throw refusal(
    "no-pane",
    `${row.id} has no pane to peek at (its window is gone and no tail was harvested)`,
    `\`docket show ${row.id}\``,
  );
}

export interface AttachResult {
  worker: string;
  switched: boolean;
  command: string[];
}

/** Inside tmux: switch the client to the worker's window. Otherwise: the exact command to run. */
export function attachWorker(ctx: EngineContext, target: string): AttachResult {
  const row = requireWorker(ctx.db, resolveWorkerId(target));
  if (!row.windowId || !row.tmuxSession)
    throw refusal("no-window", `${row.id} has no tmux window`, `\`docket respawn ${row.id}\``);
  // A worker on a host: an interactive `ssh -t … tmux attach` on the host's own server (never a local switch).
  return { worker: row.id, ...placeOf(ctx, row).attach(row.tmuxSession, row.windowId) };
}
