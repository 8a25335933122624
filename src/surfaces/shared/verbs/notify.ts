// `docket notify test`: a sample notification through every enabled sink, with what each did.
// Sinks are switched in the user's config (`notify.*`); this verb only reports and sends the sample.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

export function registerNotifyCommands(program: Command, io: Io, engine: EngineOpener): void {
  const notify = declareVerb(program, "notify");
  notify
    .command("test")
    .description("send a sample notification through every enabled sink and say what each did")
    .action(async () => {
      const { notifyTest } = await import("../../../engine/talk/notify-dispatch.js");
      const result = await notifyTest(engine(), {
        holder: `cli:${process.pid}`,
        ...(process.stderr.isTTY
          ? { terminal: { write: (s: string) => void process.stderr.write(s), insideTmux: Boolean(process.env.TMUX) } }
          : {}),
      });
      emit(io, { sinks: result.sinks }, (r) =>
        r.sinks.map((s) => `${s.sink.padEnd(8)} ${s.state.padEnd(7)} ${s.detail}`),
      );
    });
}
