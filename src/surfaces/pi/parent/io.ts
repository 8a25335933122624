// Adapts the CLI's Io to a pi session: output is shown to the human (never to the model), questions go through
// ctx.ui; in print/json mode nothing waits and output goes to stderr (pi keeps stdout for its own output).

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { Io } from "../../shared/io.js";
import { noticeFor } from "./chat-notice.js";

export interface CollectingIo extends Io {
  /** Shows what the command printed: results as info, `warning:` lines as a warning, a refusal as an error. */
  flush(failed: boolean): void;
}

type Line = { stream: "out" | "warn" | "err"; text: string };

/** Which level each collected line is shown at; a failed command's stderr lines are its refusal. */
export function levelsOf(
  lines: readonly Line[],
  failed: boolean,
): { info: string[]; warning: string[]; error: string[] } {
  const info: string[] = [];
  const warning: string[] = [];
  const error: string[] = [];
  for (const l of lines) {
    if (l.stream === "warn") warning.push(l.text);
    else if (l.stream === "err" && failed) error.push(l.text);
    else info.push(l.text); // results, and progress or confirmation summaries a command printed on stderr
  }
  return { info, warning, error };
}

export function createParentIo(
  ctx: ExtensionContext,
  options: {
    json?: boolean;
    parent?: { model?: string; thinking?: string; sessionFile?: string };
    /** What each chunk becomes before it is shown (pi's `/docket` syntax); undefined drops it. */
    translate?: (text: string) => string | undefined;
  } = {},
): CollectingIo {
  const lines: Line[] = [];
  const show = (failed: boolean) => {
    const taken = lines.splice(0);
    if (taken.length === 0) return;
    if (!ctx.hasUI) {
      // Print and json modes reserve stdout (pi redirects it anyway; in json mode it carries the event stream).
      process.stderr.write(`${taken.map((l) => l.text).join("\n")}\n`);
      return;
    }
    const { info, warning, error } = levelsOf(taken, failed);
    if (warning.length > 0) noticeFor(ctx, warning.join("\n"), "warning");
    if (info.length > 0) noticeFor(ctx, info.join("\n"), "info");
    if (error.length > 0) noticeFor(ctx, error.join("\n"), "error");
  };
  const push = (stream: Line["stream"], text: string) => {
    const shown = options.translate ? options.translate(text) : text;
    if (shown !== undefined) lines.push({ stream, text: shown.replace(/\n$/, "") });
  };
  return {
    json: options.json ?? false,
    parent: options.parent,
    interactive: ctx.hasUI,
    out: (text) => push("out", text),
    err: (text) => push(/^warning: /.test(text) ? "warn" : "err", text),
    // What the command printed so far (a card, a promotion's warnings) is shown before the question it leads to.
    input: async (prompt) => {
      show(false);
      return ((await ctx.ui.input(prompt.trim())) ?? "").trim();
    },
    confirm: (question) => {
      show(false);
      return ctx.ui.confirm("docket", question);
    },
    select: (title, options) => {
      show(false);
      return ctx.ui.select(title, options);
    },
    flush: show,
  };
}
