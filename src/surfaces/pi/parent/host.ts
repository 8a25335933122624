// What Docket's pi components need from the session: its UI, the model and thinking a spawned worker inherits, and a
// way to repaint the dock at once; plus how results and refusals are shown (info and error, never a warning).

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { Component, TUI } from "@mariozechner/pi-tui";
import { isDocketError } from "../../../domain/errors.js";
import { noticeFor } from "./chat-notice.js";
import type { Paint } from "./paint.js";
import type { EngineOpener } from "../../shared/session.js";

export interface ParentHost {
  ctx: ExtensionContext;
  /**
   * The live session's model, thinking and session file (docs/decisions/spawn-policy.md): a worker started from a card
   * inherits them.
   */
  parent?: { model?: string; thinking?: string; sessionFile?: string };
  /** This session's engine, made by the extension factory (role.ts) and opened on first use. */
  engine: EngineOpener;
  /** Repaint the dock now: an action changed the ledger. */
  refresh(): void;
}

/** One line for a refusal: the engine's message and its hint (what to do). */
export function refusalText(error: unknown): string {
  if (isDocketError(error)) return `${error.message}${error.hint ? ` (${error.hint})` : ""}`;
  return error instanceof Error ? error.message : String(error);
}

export function showResult(host: ParentHost, lines: readonly string[]): void {
  if (lines.length > 0) noticeFor(host.ctx, lines.join("\n"), "info");
}

export function showRefusal(host: ParentHost, error: unknown): void {
  noticeFor(host.ctx, `docket: ${refusalText(error)}`, "error");
}

/** A focused overlay over pi's screen; resolves with what the component passed to `done`. */
export function showOverlay<T>(
  host: ParentHost,
  make: (tui: TUI, paint: Paint, done: (result: T) => void) => Component,
): Promise<T> {
  return host.ctx.ui.custom<T>((tui, theme, _keys, done) => make(tui, theme, done), {
    overlay: true,
    overlayOptions: { width: "94%", minWidth: 60, maxHeight: "90%", anchor: "center" },
  });
}
