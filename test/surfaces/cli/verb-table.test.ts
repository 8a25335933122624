// The lazy verb table (shared/verbs/registry.ts) states exactly what each command group registers, in help order, so
// `docket --help`, suggestions and the pi parent's completion stay whole while a command line loads one group.

import { test } from "node:test";
import assert from "node:assert/strict";
import { Command, Help } from "commander";
import { HELP_HEADINGS, VERB_GROUPS, helpHeadingOf } from "../../../src/surfaces/shared/verbs/registry.js";
import { listVerbs, runCli } from "../../../src/surfaces/shared/verbs/run.js";
import type { Io } from "../../../src/surfaces/shared/io.js";

function collectingIo(): Io & { text: string[] } {
  const text: string[] = [];
  return {
    json: false,
    interactive: false,
    text,
    out: (s) => void text.push(s),
    err: (s) => void text.push(s),
    confirm: async () => false,
    input: async () => "",
    select: async () => undefined,
  };
}

/** Help and registration need no ledger: the engine they are handed must never be opened. */
const noEngine = () => assert.fail("help opened the engine");
const helpOnly = { engine: async () => noEngine };

test("every group registers exactly the verbs, usages, descriptions and subcommands the table lists, in its order", async () => {
  const help = new Help();
  for (const group of VERB_GROUPS) {
    const program = new Command("docket");
    (await group.load())(program, collectingIo(), noEngine);
    const registered = program.commands.map((c) => ({
      name: c.name(),
      term: help.subcommandTerm(c),
      description: c.description(),
      subcommands: c.commands.map((s) => s.name()),
    }));
    const listed = group.verbs.map((v) => ({
      name: v.name,
      term: v.usage === "" ? v.name : `${v.name} ${v.usage}`,
      description: v.description,
      subcommands: [...(v.subcommands ?? [])],
    }));
    assert.deepEqual(listed, registered);
  }
});

test("help is the same whichever verb's group a command line loads", async () => {
  const helpOf = async (argv: string[]) => {
    const io = collectingIo();
    assert.equal(await runCli(argv, io, helpOnly), 0);
    return io.text.join("");
  };
  const full = await helpOf(["--help"]);
  for (const g of VERB_GROUPS)
    for (const v of g.verbs) assert.match(full, new RegExp(`\\n  ${v.name}[ \\n]`), `--help lists ${v.name}`);
  // `help ls` loads ls's group; `-h` before it still prints the program's help, now with real ls commands inside.
  assert.equal(await helpOf(["-h", "ls"]), full);
  assert.equal(await helpOf(["-h", "worker"]), full);
});

test("help groups the verbs under the README's headings, in that order, every verb under exactly one", async () => {
  const io = collectingIo();
  assert.equal(await runCli(["--help"], io, helpOnly), 0);
  const full = io.text.join("");
  const headings = HELP_HEADINGS;
  const at = headings.map((h) => full.indexOf(`\n${h}\n`));
  assert.ok(
    at.every((i) => i > 0),
    `every heading printed: ${headings.filter((_, k) => at[k]! < 0).join(", ")}`,
  );
  assert.deepEqual(
    [...at].sort((a, b) => a - b),
    at,
    "in the table's order",
  );
  for (const g of VERB_GROUPS) {
    for (const v of g.verbs) {
      const k = headings.indexOf(helpHeadingOf(v.name));
      const section = full.slice(at[k]!, at[k + 1] ?? full.indexOf("\nCommands:\n"));
      assert.match(section, new RegExp(`\\n  ${v.name}[ \\n]`), `${v.name} under ${headings[k]}`);
    }
  }
});

test("the pi parent's completion lists every verb with its subcommands from the table, loading no group", () => {
  const verbs = listVerbs();
  assert.deepEqual(
    verbs.map((v) => v.name),
    VERB_GROUPS.flatMap((g) => g.verbs.map((v) => v.name)),
  );
  assert.deepEqual(verbs.find((v) => v.name === "worker")?.subcommands, [
    "report",
    "reconcile",
    "done",
    "wait",
    "todos",
    "consult",
    "note",
    "fail",
    "exited",
    "heartbeat",
    "hook",
    "gate",
  ]);
});
