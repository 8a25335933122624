// `docket item add|edit|reply|ls|show`: the human's todos and requests.

import type { Command } from "commander";
import type { Io } from "../output.js";
import { emit } from "../output.js";
import { engine } from "../session.js";

export function registerItemCommands(program: Command, io: Io): void {
  const item = program.command("item").description("the human's work items: todos (t<N>) and requests (r<N>)");

  item
    .command("add")
    .description("add a todo (or a request with --request)")
    .argument("<text...>", "what needs doing")
    .option("--request", "create a request (r<N>) instead of a todo (t<N>)")
    .option("--key <key>", "idempotency key: repeating the same call returns the first result")
    .action(async (words: string[], opts: { request?: boolean; key?: string }) => {
      const { addItem } = await import("../../../engine/items.js");
      const created = addItem(engine(), { kind: opts.request ? "request" : "todo", text: words.join(" "), key: opts.key });
      emit(io, { id: created.id, kind: created.kind, revision: created.revision }, (r) => `${r.id} added (${r.kind}, revision ${r.revision})`);
    });

  item
    .command("ls")
    .description("list open items (--all: every item)")
    .option("--all", "include done, closed and abandoned items")
    .action(async (opts: { all?: boolean }) => {
      const { itemList } = await import("../../../engine/items.js");
      const items = itemList(engine(), { all: Boolean(opts.all) });
      emit(io, { items: items.map((i) => ({ id: i.id, kind: i.kind, text: i.text, revision: i.revision, state: i.state })) }, (r) =>
        r.items.length === 0 ? "no items" : r.items.map((i) => `${i.id.padEnd(5)} ${i.state.padEnd(9)} rev ${String(i.revision).padEnd(3)} ${i.text}`),
      );
    });
}
