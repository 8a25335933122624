// What a worker's agent reads back from each protocol call, the same words through every door (pi tool, MCP).
// One line per fact; refusals are the engine's one-line message with its fix.

import { isDocketError } from "../../domain/errors.js";
import type { DoneResult, TodosResult, WaitResult } from "../../engine/protocol/protocol.js";
import type { ConsultResult, NoteResult } from "../../engine/protocol/consult.js";

export function formatDoneReply(result: DoneResult, body: string, source: "message" | "argument"): string {
  const lines = [`Published ${result.deliverable.ref} (v${result.deliverable.version}); the human will review it.`];
  if (body.trim() === "") {
    lines.push(
      source === "message"
        ? "Note: the message with this call had no text, so the deliverable body is empty. To publish text, write it in the same message as a new docket_done call."
        : "Note: `body` was empty, so the deliverable body is empty. To publish text, call docket_done again with the full text in `body`.",
    );
  }
  for (const r of result.items) lines.push(`${r.item}: ${r.status} (${r.reportId})`);
  return lines.join("\n");
}

export function formatWaitReply(result: WaitResult): string {
  const lines = [
    `Question ${result.question} is with the human. Stop now: the answer arrives as a new message; do not poll or search for it.`,
  ];
  for (const r of result.blocked) lines.push(`${r.item}: recorded as blocked`);
  return lines.join("\n");
}

export function formatTodosReply(result: TodosResult): string {
  const done = result.todos.filter((t) => t.state === "completed").length;
  return `Board updated: ${result.todos.length} items, ${done} completed${result.dropped ? ` (${result.dropped} dropped)` : ""}.`;
}

export function formatConsultReply(result: ConsultResult): string {
  const whom = result.audience === "parent-agent" ? "the parent agent" : "the human (the consult lane is off)";
  return `Consult ${result.question} is with ${whom}. Stop now: the answer arrives as a new message; do not poll or search for it.`;
}

export function formatNoteReply(result: NoteResult): string {
  const to = result.suggested.length > 0 ? ` (suggested for ${result.suggested.join(", ")}; the human decides)` : "";
  return `Noted for the human as ${result.note}${to}. Carry on with your task.`;
}

export function formatFailReply(result: { reason: string }): string {
  return `Recorded as failed: ${result.reason}`;
}

/** A Docket refusal as the one line a model reads (message, then the fix); anything else is rethrown. */
export function refusalText(error: unknown): string {
  if (isDocketError(error)) return `${error.message}${error.hint ? ` (${error.hint})` : ""}`;
  throw error;
}
