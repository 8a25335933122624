// `docket attention`: what needs the human now — blocked items, item outcomes, and other pending notifications.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import { collect } from "./args.js";
import { engine } from "../session.js";

const ICON: Record<string, string> = { done: "✅ done", released: "↩️ released", abandoned: "⛔ abandoned" };

export function registerAttentionCommands(program: Command, io: Io): void {
  program
    .command("attention")
    .description("list pending notifications (blocked items, outcomes); --dismiss <id> clears one")
    .option("--dismiss <id>", "dismiss a notification (repeatable)", collect, [])
    .action(async (opts: { dismiss: string[] }) => {
      const { attentionList, dismissAttention } = await import("../../../engine/talk/attention.js");
      if (opts.dismiss.length > 0) {
        emit(io, dismissAttention(engine(), opts.dismiss), (r) => `dismissed ${r.dismissed.join(", ")}`);
        return;
      }
      const list = attentionList(engine());
      const notifications = list.map(({ id, kind, worker, item, body, forHuman }) => ({ id, kind, worker, item, body, forHuman }));
      emit(io, { notifications }, () =>
        list.length === 0
          ? "nothing needs your attention"
          : list.flatMap((n) => [
              `${n.id.padEnd(5)} ${headline(n)}${n.worker ? ` ${n.worker}` : ""}${n.item ? ` ${n.item}` : ""}: ${n.body}`,
              ...n.forHuman.map((l) => `      › ${l}`),
            ]),
      );
    });
}

function headline(n: { kind: string; outcome?: string }): string {
  if (n.kind === "blocked") return "⏸ worker blocked";
  if (n.kind === "outcome" && n.outcome) return ICON[n.outcome] ?? n.outcome;
  return n.kind;
}
