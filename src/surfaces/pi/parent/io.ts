// Adapts the CLI's Io to a pi session: output is shown to the human (never to the model), questions go
// through ctx.ui; in print/json mode nothing waits and output goes to stderr (pi keeps stdout for its own output).

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { Io } from "../../shared/io.js";

export interface CollectingIo extends Io {
  /** Shows what the command printed, as one notification. */
  flush(failed: boolean): void;
}

export function createParentIo(
  ctx: ExtensionContext,
  options: { json?: boolean; parent?: { model?: string; thinking?: string; sessionFile?: string } } = {},
): CollectingIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    json: options.json ?? false,
    parent: options.parent,
    interactive: ctx.hasUI,
    out: (text) => out.push(text.replace(/\n$/, "")),
    err: (text) => err.push(text.replace(/\n$/, "")),
    input: async (prompt) => ((await ctx.ui.input("docket", prompt)) ?? "").trim(),
    confirm: (question) => ctx.ui.confirm("docket", question),
    select: (title, options) => ctx.ui.select(title, options),
    flush(failed) {
      const lines = [...out, ...err];
      const level = failed ? "error" : err.length > 0 ? "warning" : "info";
      out.length = 0;
      err.length = 0;
      if (lines.length === 0) return;
      if (ctx.hasUI) ctx.ui.notify(lines.join("\n"), level);
      // Print and json modes reserve stdout (pi redirects it anyway; in json mode it carries the event stream).
      else process.stderr.write(`${lines.join("\n")}\n`);
    },
  };
}
