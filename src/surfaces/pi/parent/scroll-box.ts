// A framed overlay with a fixed head, a scrollable body and a key legend: the shape of the card, the diff viewer and
// the fleet dashboard. Scrolling keys are handled here; every other key goes to the view's own handler first.

import { matchesKey, type Component, type TUI } from "@mariozechner/pi-tui";
import { frame, scrollHint, viewport, wrap, type Paint } from "./paint.js";

export interface BoxContent {
  title(): string;
  head(width: number): string[];
  /** The scrollable lines; cached per width by the box until `invalidate`. */
  body(width: number): string[];
  legend(): string[];
  /** Fixed lines under the body (the fleet's peek panel). */
  tail?(width: number): string[];
  /** Shown in the bottom border beside the scroll position. */
  footer?(): string;
}

/** The share of the terminal's rows the overlay may use (the rest keeps pi's own screen in view). */
export const OVERLAY_HEIGHT = 0.85;

export class ScrollBox implements Component {
  offset: number;
  private cached: { width: number; lines: string[] } | undefined;
  private page = 10;
  private height = 10;

  constructor(
    private readonly tui: TUI,
    private readonly paint: Paint,
    private readonly content: BoxContent,
    /** Returns true when it handled the key. */
    private readonly onKey: (data: string) => boolean,
    offset = 0,
  ) {
    this.offset = offset;
  }

  render(width: number): string[] {
    const inner = Math.max(10, width - 4);
    const head = this.content.head(inner);
    const legend = wrapLegend(this.content.legend(), inner);
    const tail = this.content.tail?.(inner) ?? [];
    const rows = Math.max(12, Math.floor(this.tui.terminal.rows * OVERLAY_HEIGHT));
    const height = Math.max(3, rows - 4 - head.length - legend.length - (tail.length > 0 ? tail.length + 1 : 0));
    if (this.cached?.width !== inner) this.cached = { width: inner, lines: this.content.body(inner) };
    const body = this.cached.lines;
    const view = viewport(body, this.offset, height);
    this.offset = view.offset;
    this.page = Math.max(1, height - 1);
    this.height = height;
    const rule = this.paint.fg("borderMuted", "─".repeat(inner));
    const lines = [
      ...head,
      ...(head.length > 0 ? [rule] : []),
      ...view.rows,
      ...(tail.length > 0 ? [rule, ...tail] : []),
      rule,
      ...legend,
    ];
    const footer = [scrollHint(view.offset, view.rows.length, body.length), this.content.footer?.() ?? ""]
      .filter(Boolean)
      .join(" · ");
    return frame(this.paint, width, this.content.title(), lines, footer);
  }

  handleInput(data: string): void {
    if (this.onKey(data)) return;
    const total = this.cached?.lines.length ?? 0;
    if (matchesKey(data, "j") || matchesKey(data, "down")) this.offset += 1;
    else if (matchesKey(data, "k") || matchesKey(data, "up")) this.offset -= 1;
    else if (matchesKey(data, "space") || matchesKey(data, "pageDown") || matchesKey(data, "ctrl+f"))
      this.offset += this.page;
    else if (matchesKey(data, "b") || matchesKey(data, "pageUp") || matchesKey(data, "ctrl+b"))
      this.offset -= this.page;
    else if (matchesKey(data, "g") || matchesKey(data, "home")) this.offset = 0;
    else if (matchesKey(data, "shift+g") || matchesKey(data, "end")) this.offset = total;
    else return;
    this.offset = Math.max(0, Math.min(this.offset, total));
    this.tui.requestRender();
  }

  /** Scrolls as little as needed for body line `line` to be on screen. */
  reveal(line: number): void {
    if (line < this.offset) this.offset = line;
    else if (line >= this.offset + this.height) this.offset = line - this.height + 1;
  }

  /** Drops the cached body (new content, or pi's theme changed). */
  invalidate(): void {
    this.cached = undefined;
  }
}

/** Keys that close every Docket overlay: Esc, q, Ctrl+C. */
export function isClose(data: string): boolean {
  return matchesKey(data, "escape") || matchesKey(data, "q") || matchesKey(data, "ctrl+c");
}

function wrapLegend(entries: readonly string[], width: number): string[] {
  return wrap(entries.join(" · "), width);
}
