// The project journal: promotions append what landed (crediting every contributing worker), the human may post to
// everyone, and the file workers read is re-rendered from the ledger after each append.

import { validationError } from "../../domain/errors.js";
import { formatCredit, renderJournal, type JournalEntry } from "../../domain/talk/journal.js";
import { assertNoControlCharacters, normalizeMessageText } from "../../domain/work/message-text.js";
import { journalFile, writeJournalFile } from "../../files/talk/journal-file.js";
import { insertJournalEntry, listJournal } from "../../ledger/talk/journal.js";
import type { Tx } from "../../ledger/core/runner.js";
import type { EngineContext } from "../context.js";
import { assertHuman } from "../authority.js";

export interface Promotion {
  projectRoot: string;
  ref: string;
  paths: readonly string[];
  /** Every worker whose work landed (both sources of a combined change set). */
  workers: readonly string[];
  summary: string;
  decision: string;
}

/** Inside the promotion's own command: the journal entry lands with the decision or not at all. */
export function journalPromotion(tx: Tx, p: Promotion): string {
  const credit = formatCredit(p.workers);
  const text =
    p.workers.length > 1
      ? `Combined changes from ${credit} were approved and promoted together: ${p.summary}`
      : `${credit}'s change was approved and promoted: ${p.summary}`;
  return insertJournalEntry(tx, {
    projectRoot: p.projectRoot,
    kind: "promoted",
    from: credit,
    text,
    paths: p.paths,
    ref: p.ref,
    workers: p.workers,
    decision: p.decision,
  });
}

/** The outbox effect: re-render one project's view from the ledger (idempotent, so a repeat is harmless). */
export function renderJournalFile(ctx: EngineContext, projectRoot: string): string {
  return writeJournalFile(ctx.home, projectRoot, renderJournal(projectRoot, listJournal(ctx.db, projectRoot)));
}

export interface JournalView {
  project: string;
  file: string;
  entries: JournalEntry[];
}

/** This project's journal, oldest first, and where its rendered view is. */
export function readJournal(ctx: EngineContext): JournalView {
  const project = ctx.projectRoot();
  return { project, file: journalFile(ctx.home, project), entries: listJournal(ctx.db, project) };
}

/** The human posts `text` to every worker of this project through the journal (no worker is interrupted). */
export function postToJournal(
  ctx: EngineContext,
  input: { text: string; from?: string; kind?: "broadcast" | "note"; workers?: readonly string[] },
): { entry: string; file: string } {
  assertHuman(ctx, "broadcast");
  const text = normalizeMessageText(input.text);
  if (!text) throw validationError("empty-message", "the journal entry is empty; say what every worker should know");
  assertNoControlCharacters(text, "journal entry");
  const project = ctx.projectRoot();
  const entry = ctx.commands.run("journal.post", { project, text, from: input.from ?? "you" }, (tx) =>
    insertJournalEntry(tx, {
      projectRoot: project,
      kind: input.kind ?? "broadcast",
      from: input.from ?? "you",
      text,
      workers: input.workers ?? [],
    }),
  ).result;
  return { entry, file: journalFile(ctx.home, project) };
}
