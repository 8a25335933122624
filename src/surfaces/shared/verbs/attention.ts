// `docket attention`: what needs the human now — blocked items, item outcomes, and other pending notifications.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import { collect } from "./args.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

const ICON: Record<string, string> = { done: "✅ done", released: "↩️ released", abandoned: "⛔ abandoned" };

export function registerAttentionCommands(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "attention")
    .option("--dismiss <id>", "dismiss a notification (repeatable)", collect, [])
    .option(
      "--all",
      "also the notices whose subject was settled since (worker deleted, question answered, version judged)",
    )
    .action(async (opts: { dismiss: string[]; all?: boolean }) => {
      const { attentionList, dismissAttention } = await import("../../../engine/talk/attention.js");
      if (opts.dismiss.length > 0) {
        emit(io, dismissAttention(engine(), opts.dismiss), (r) => `dismissed ${r.dismissed.join(", ")}`);
        return;
      }
      const every = attentionList(engine());
      const list = opts.all ? every : every.filter((n) => !n.settled);
      const settledHidden = every.length - list.length;
      const notifications = list.map(({ id, kind, worker, item, body, forHuman, settled }) => ({
        id,
        kind,
        worker,
        item,
        body,
        forHuman,
        settled,
      }));
      emit(io, { notifications, settledHidden }, () => [
        ...(list.length === 0
          ? ["nothing needs your attention"]
          : list.flatMap((n) => [
              `${n.id.padEnd(5)} ${headline(n)}${n.worker ? ` ${n.worker}` : ""}${n.item ? ` ${n.item}` : ""}: ${n.body}${n.settled ? " (settled since)" : ""}`,
              ...n.forHuman.map((l) => `      › ${l}`),
            ])),
        ...(settledHidden > 0
          ? [
              `${settledHidden} older notice${settledHidden === 1 ? "" : "s"} settled since (\`docket attention --all\` shows them)`,
            ]
          : []),
      ]);
    });
}

function headline(n: { kind: string; outcome?: string }): string {
  if (n.kind === "blocked") return "⏸ worker blocked";
  if (n.kind === "outcome" && n.outcome) return ICON[n.outcome] ?? n.outcome;
  return n.kind;
}
