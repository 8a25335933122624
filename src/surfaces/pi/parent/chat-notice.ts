// Docket's lines in pi's chat at their level. pi's TUI lets an info line replace the info line before it when nothing
// came between, so there consecutive info lines grow one block instead: news never wipes a result, nor a result news.

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { visibleText } from "../../../domain/text/visible-text.js";

export type NoticeLevel = "info" | "warning" | "error";

/** Lines kept in one block; older ones go (pi would have replaced them anyway). */
export const BLOCK_MAX_LINES = 40;

let block: string[] = [];

/**
 * `tui`: pi's interactive TUI owns the terminal (RPC clients get every notification as its own event). Every line
 * Docket shows in pi's chat comes through here, so here it passes the one output filter (worker text in notices).
 */
export function notice(
  ui: Pick<ExtensionContext["ui"], "notify">,
  raw: string,
  level: NoticeLevel,
  tui: boolean,
): void {
  const text = visibleText(raw);
  if (!tui || level !== "info") {
    block = []; // a warning or an error is its own chat entry: the next info line starts afresh
    ui.notify(text, level);
    return;
  }
  block = [...block, ...text.split("\n")].slice(-BLOCK_MAX_LINES);
  ui.notify(block.join("\n"), "info");
}

/** Something else entered the chat (a prompt, a reply): the next info line is a new entry, not a replacement. */
export function chatMoved(): void {
  block = [];
}

/** A notice from a command handler's context: the TUI is pi's interactive mode on a terminal. */
export function noticeFor(ctx: Pick<ExtensionContext, "hasUI" | "ui">, text: string, level: NoticeLevel): void {
  notice(ctx.ui, text, level, ctx.hasUI && process.stdout.isTTY === true);
}
