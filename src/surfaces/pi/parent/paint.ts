// Drawing helpers for Docket's pi components: theme colours behind a small interface (plain text in tests),
// worker text made safe for the terminal, and lines cut or padded to an exact width (pi-tui measures columns).

import type { ThemeColor } from "@mariozechner/pi-coding-agent";
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@mariozechner/pi-tui";
import { visibleText } from "../../../domain/text/visible-text.js";

/** The part of pi's Theme the components use; pi's Theme satisfies it. */
export interface Paint {
  fg(color: ThemeColor, text: string): string;
  bold(text: string): string;
}

export const plainPaint: Paint = { fg: (_color, text) => text, bold: (text) => text };

/**
 * Worker-written text (tasks, bodies, paths, pane captures) as it may be drawn: Docket's one output filter (controls as
 * `␛`, `␍`…, bidi and zero-width marks as `⟨U+202E⟩`), then tabs as spaces, since a component measures columns.
 */
export function safe(text: string): string {
  return visibleText(text).replace(/\t/g, "  ");
}

/** One line of exactly `width` columns: cut with `…` when longer, padded with spaces when shorter. */
export function fit(line: string, width: number): string {
  if (width <= 0) return "";
  return truncateToWidth(line, width, "…", true);
}

/** Text wrapped to `width` columns; each input line is wrapped on its own and empty lines stay. */
export function wrap(text: string, width: number): string[] {
  if (width <= 0) return [];
  return text.split("\n").flatMap((l) => (l === "" ? [""] : wrapTextWithAnsi(l, width)));
}

export { visibleWidth };

/**
 * A box of `width` columns: a title in the top border, the lines inside, a footer in the bottom border. Every line is
 * exactly `width` columns wide, so the overlay hides what lies behind it.
 */
export function frame(paint: Paint, width: number, title: string, lines: readonly string[], footer: string): string[] {
  const inner = Math.max(1, width - 4);
  const border = (left: string, text: string, right: string) => {
    const label = text === "" ? "" : ` ${truncateToWidth(text, Math.max(0, width - 6), "…")} `;
    return (
      paint.fg("border", `${left}─`) +
      label +
      paint.fg("border", "─".repeat(Math.max(0, width - 3 - visibleWidth(label))) + right)
    );
  };
  return [
    border("╭", title, "╮"),
    ...lines.map((l) => `${paint.fg("border", "│")} ${fit(l, inner)} ${paint.fg("border", "│")}`),
    border("╰", footer, "╯"),
  ];
}

/** The rows of a scrolled body that fit in `height`, and the clamped offset they start at. */
export function viewport<T>(rows: readonly T[], offset: number, height: number): { rows: T[]; offset: number } {
  const max = Math.max(0, rows.length - height);
  const at = Math.min(Math.max(0, offset), max);
  return { rows: rows.slice(at, at + height), offset: at };
}

/** `12–40 of 90` when the body does not fit, else empty. */
export function scrollHint(offset: number, shown: number, total: number): string {
  return total > shown ? `${offset + 1}–${offset + shown} of ${total}` : "";
}
