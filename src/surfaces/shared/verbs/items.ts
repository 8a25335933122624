// `docket item add|edit|reply|ls|show`: the human's todos and requests.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

export function registerItemCommands(program: Command, io: Io, engine: EngineOpener): void {
  const item = declareVerb(program, "item");

  item
    .command("add")
    .description("add a todo (or a request with --request)")
    .argument("<text...>", "what needs doing")
    .option("--request", "create a request (r<N>) instead of a todo (t<N>)")
    .option("--key <key>", "idempotency key: repeating the same call returns the first result")
    .action(async (words: string[], opts: { request?: boolean; key?: string }) => {
      const { addItem } = await import("../../../engine/work/items.js");
      const created = addItem(engine(), {
        kind: opts.request ? "request" : "todo",
        text: words.join(" "),
        key: opts.key,
      });
      emit(
        io,
        { id: created.id, kind: created.kind, revision: created.revision },
        (r) => `${r.id} added (${r.kind}, revision ${r.revision})`,
      );
    });

  item
    .command("edit")
    .description("change an item's text; a bound worker's accepted revision follows and it gets a reply review")
    .argument("<id>", "item id (t<N> or r<N>)")
    .argument("<text...>", "the new text")
    .option(
      "--external",
      "record the change as another actor's (an import): the bound worker's accepted revision does not move",
    )
    .option("--key <key>", "idempotency key: repeating the same call returns the first result")
    .action(async (id: string, words: string[], opts: { external?: boolean; key?: string }) => {
      const { editItem } = await import("../../../engine/work/items.js");
      const r = editItem(engine(), { id, text: words.join(" "), external: opts.external, key: opts.key });
      emit(io, r, (x) => `${x.id} edited (revision ${x.revision})${followText(x, Boolean(opts.external))}`);
    });

  item
    .command("reply")
    .description("reply to an item; it stays unanswered until a worker's report answers it")
    .argument("<id>", "item id (t<N> or r<N>)")
    .argument("<text...>", "the reply")
    .option("--key <key>", "idempotency key: repeating the same call returns the first result")
    .action(async (id: string, words: string[], opts: { key?: string }) => {
      const { replyItem } = await import("../../../engine/work/items.js");
      const r = replyItem(engine(), { id, text: words.join(" "), key: opts.key });
      emit(io, r, (x) => `reply ${x.reply} on ${x.id} (revision ${x.revision})${followText(x, false)}`);
    });

  item
    .command("show")
    .description("show one item with its replies, bindings and reports")
    .argument("<id>", "item id (t<N> or r<N>)")
    .action(async (id: string) => {
      const { showItem } = await import("../../../engine/work/items.js");
      emit(io, showItem(engine(), id), (d) => [
        `${d.id} ${d.kind} · ${d.state} · revision ${d.revision}`,
        `  ${d.text}`,
        ...(d.replies.length ? ["replies:", ...d.replies.map((r) => `  ${r.id} ${r.state}: ${r.text}`)] : []),
        ...(d.bindings.length
          ? [
              "bindings:",
              ...d.bindings.map(
                (b) => `  ${b.id} ${b.worker} gen ${b.generation} accepted rev ${b.acceptedRevision} · ${b.state}`,
              ),
            ]
          : []),
        ...(d.reports.length
          ? ["reports:", ...d.reports.map((r) => `  ${r.id} ${r.outcome}: ${r.body.replace(/\s+/g, " ")}`)]
          : []),
      ]);
    });

  item
    .command("ls")
    .description("list open items (--all: every item)")
    .option("--all", "include done, closed and abandoned items")
    .action(async (opts: { all?: boolean }) => {
      const { itemList } = await import("../../../engine/work/items.js");
      const items = itemList(engine(), { all: Boolean(opts.all) });
      emit(
        io,
        { items: items.map((i) => ({ id: i.id, kind: i.kind, text: i.text, revision: i.revision, state: i.state })) },
        (r) =>
          r.items.length === 0
            ? "no items"
            : r.items.map(
                (i) => `${i.id.padEnd(5)} ${i.state.padEnd(9)} rev ${String(i.revision).padEnd(3)} ${i.text}`,
              ),
      );
    });
}

function followText(r: { binding?: string; message?: string }, external: boolean): string {
  if (external) return "; external change: the bound worker's accepted revision did not move";
  return r.binding ? `; ${r.binding} now accepts this revision, reply review ${r.message} queued` : "";
}
