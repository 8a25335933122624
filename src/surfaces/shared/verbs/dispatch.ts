// `docket dispatch <worker> <item>...`: hand open items to one worker (one dispatch, a binding per item).

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

export function registerDispatchCommands(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "dispatch")
    .argument("<worker>", "worker id (w<N>)")
    .argument("<items...>", "item ids (t<N>, r<N>)")
    .option("--key <key>", "idempotency key: repeating the same call returns the first result")
    .action(async (worker: string, items: string[], opts: { key?: string }) => {
      const { dispatchItems } = await import("../../../engine/work/dispatch.js");
      const r = dispatchItems(engine(), { worker, items, key: opts.key });
      emit(io, { dispatch: r.dispatch, bindings: r.bindings }, (x) => [
        `${x.dispatch}: ${x.bindings.length} item${x.bindings.length === 1 ? "" : "s"} dispatched to ${worker.startsWith("w") ? worker : `w${worker}`}`,
        ...x.bindings.map((b) => `  ${b.item} → ${b.binding} (accepted revision ${b.acceptedRevision})`),
      ]);
    });
}
