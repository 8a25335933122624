// The project journal as workers read it: a markdown view rendered from the ledger's append-only entries.
// It is regenerated in full on every append, newest first; editing the file changes nothing. Worker text
// is a quote block and paths are git-quoted, one line each, so nothing a worker wrote can forge an entry.

import { quoteBlock } from "../text/fence.js";
import { quotePath } from "../text/quote-path.js";

export type JournalKind = "promoted" | "broadcast" | "note";

export interface JournalEntry {
  id: string;
  at: string;
  kind: JournalKind;
  /** `you`, `w2`, or `w2 + w3` for a combined promotion. */
  from: string;
  text: string;
  paths: string[];
  ref: string | null;
  /** Every worker credited (a combined promotion credits both). */
  workers: string[];
}

/** The view keeps this many entries; the ledger keeps them all. */
export const JOURNAL_VIEW_ENTRIES = 120;

/** The credit line of a promotion: `w2`, or `w2 + w3` for work several workers made together. */
export function formatCredit(workers: readonly string[]): string {
  return workers.length === 0 ? "you" : workers.join(" + ");
}

/**
 * What a worker wrote (a promotion's summary, a forwarded note) is quoted, every line behind `> `; only the human's own
 * broadcast stands as written (it was refused if it held a control character).
 */
function entryText(e: JournalEntry): string {
  return e.kind === "broadcast" && e.from === "you" ? e.text : quoteBlock(e.text);
}

function entryLines(e: JournalEntry): string[] {
  const head = `## ${e.at} · ${e.kind} · from ${e.from}`;
  if (e.kind !== "promoted") return [head, "", entryText(e), ""];
  return [
    head,
    "",
    entryText(e),
    ...(e.ref ? ["", `Deliverable: ${e.ref}`] : []),
    "",
    `Landed in the project (${e.paths.length} file${e.paths.length === 1 ? "" : "s"}):`,
    ...e.paths.map((p) => `- ${quotePath(p)}`),
    "",
    `If your worktree has any of these files, it still holds the old bytes: your copy is not what the project has now.`,
    `Say so in your docket_done outcome, or ask with docket_wait, before you build on them. A promotion that credits you (${formatCredit(e.workers)}) is your own work landing, not a warning.`,
    "",
  ];
}

/** The whole view of a project's journal; `entries` oldest first (as the ledger lists them). */
export function renderJournal(projectRoot: string, entries: readonly JournalEntry[]): string {
  const shown = entries.slice(-JOURNAL_VIEW_ENTRIES).reverse();
  const lines = [
    `# Project journal — ${projectRoot}`,
    "",
    "This file is generated from Docket's ledger each time an entry is added. Editing it changes nothing.",
    "Newest first: what landed in the project (promotions) and what the human posted to every worker.",
    "",
    ...(shown.length === 0 ? ["(nothing yet)", ""] : shown.flatMap(entryLines)),
  ];
  if (entries.length > shown.length)
    lines.push(`(${entries.length - shown.length} older entries are kept in the ledger: \`docket journal\`)`, "");
  return `${lines.join("\n").trimEnd()}\n`;
}
