// Which open question an answer goes to (the oldest, or the one named), and what it offers: read before an answer is
// typed, so a surface can offer the options as a picker; `answer` itself checks the same inside its command.

import { refusal, validationError } from "../../domain/errors.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import type { Db } from "../../ledger/core/open.js";
import { openQuestionsOf, questionDetail, type QuestionRow } from "../../ledger/workers/questions.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";

export interface QuestionChoices {
  worker: string;
  question: string;
  text: string;
  /** The options the worker offered (empty: a free-text question). */
  options: string[];
}

/** The open question of `worker` an answer would go to, or the refusal `answer` would give. */
export function openQuestionFor(db: Db, worker: string, question?: string): QuestionRow {
  const open = openQuestionsOf(db, worker);
  if (open.length === 0) {
    throw refusal(
      "no-open-question",
      `${worker} has no open question; nothing changed`,
      `to message it anyway: \`docket tell ${worker} <text>\``,
    );
  }
  const q = question === undefined ? open[0] : open.find((o) => o.id === question);
  if (!q) {
    throw refusal(
      "question-not-open",
      `${question} is not an open question of ${worker}; nothing changed`,
      `open: ${open.map((o) => o.id).join(", ")}`,
    );
  }
  return q;
}

export function questionChoices(ctx: EngineContext, input: { worker: string; question?: string }): QuestionChoices {
  const worker = normalizeWorkerId(input.worker);
  if (!worker) throw validationError("bad-worker-id", `"${input.worker}" is not a worker id`, "workers are w<N>");
  requireWorker(ctx.db, worker);
  const q = openQuestionFor(ctx.db, worker, input.question);
  return { worker, question: q.id, text: q.text, options: questionDetail(ctx.db, q.id)?.options ?? [] };
}
