// The worker verbs' fast command-line path against commander itself: every line worker-argv accepts gives the action
// exactly what commander gives it, a line it declines is left to commander, and every worker verb has its module.

import { test } from "node:test";
import assert from "node:assert/strict";
import { Command, CommanderError } from "commander";
import { createIo } from "../../../src/surfaces/shared/io.js";
import { registerWorkerCommands } from "../../../src/surfaces/shared/verbs/worker.js";
import { applyExitOverride } from "../../../src/surfaces/shared/verbs/outcome.js";
import { parseVerb, recorder, type RecordedVerb } from "../../../src/surfaces/cli/worker-argv.js";
import { VERB_MODULES } from "../../../src/surfaces/cli/worker-fast.js";

const io = createIo(false);

/** What commander hands the verb's action for `argv` (the action replaced by a recorder), or its error. */
async function viaCommander(argv: string[]): Promise<{ call?: unknown[]; error?: string }> {
  const program = new Command("docket")
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  registerWorkerCommands(program, io);
  program.commands.forEach(applyExitOverride);
  let call: unknown[] | undefined;
  for (const verb of program.commands[0]!.commands) verb.action((...a: unknown[]) => void (call = a.slice(0, -1)));
  try {
    await program.parseAsync(["worker", ...argv], { from: "user" });
    return { call };
  } catch (error) {
    return { error: error instanceof CommanderError ? `commander: ${error.code}` : (error as Error).message };
  }
}

async function viaFast(argv: string[]): Promise<{ call?: unknown[]; error?: string } | undefined> {
  const [name, ...rest] = argv;
  const load = VERB_MODULES[name!];
  if (!load) return undefined;
  const { group, verbs } = recorder();
  for (const register of await load()) register(group, io);
  try {
    const call = parseVerb(verbs.get(name!) as RecordedVerb, rest);
    return call ? { call } : undefined;
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const ACCEPTED = [
  ["heartbeat"],
  ["heartbeat", "--model", "anthropic/claude", "--thinking", "high"],
  ["heartbeat", "--model=a/b"],
  ["exited", "--code", "0"],
  ["exited", "--code=137"],
  ["exited", "--code", "300"],
  ["report", "--item", "t1", "--outcome", "done", "--body", "finished it"],
  [
    "report",
    "--item",
    "t1",
    "--outcome",
    "done",
    "--body",
    "-",
    "--evidence",
    "test=ok",
    "--evidence",
    "note=x",
    "--for-human",
    "a",
    "--answers",
    "t1.1=yes",
    "--key",
    "k1",
  ],
  ["report", "--file", "entries.json"],
  ["report"],
  ["report", "--item", "--outcome"],
  ["reconcile", "--item", "t2"],
  [
    "done",
    "--outcome",
    "completed",
    "--summary",
    "s",
    "--body-file",
    "-",
    "--call-id",
    "c1",
    "--recommend",
    "r1",
    "--recommend",
    "r2",
    "--addressed",
    "cm1=done",
  ],
  ["done"],
  ["done", "--items-file", "items.json", "--outcome", "findings"],
  [
    "wait",
    "--question",
    "which?",
    "--option",
    "a",
    "--option",
    "b",
    "--recommend",
    "a",
    "--risk",
    "r",
    "--blocked-file",
    "b.json",
    "--call-id",
    "w1",
  ],
  ["todos"],
  ["todos", "one", "two", "-"],
  ["todos", "--items-file", "b.json"],
  ["todos", "a", "--items-file", "b.json"],
  ["consult", "--question", "q", "--context", "c", "--option", "o", "--recommend", "o", "--call-id", "c2"],
  ["note", "hello", "there", "--to", "w2", "--to=w3", "again"],
  ["note", "--call-id", "n1", "x"],
  ["fail", "--reason", "stuck"],
  ["fail"],
  ["hook", "stop"],
  ["hook", "notify", '{"type":"agent-turn-complete"}'],
  ["hook", "prompt"],
  ["gate"],
];

const DECLINED = [
  ["heartbeat", "--bogus"],
  ["heartbeat", "--help"],
  ["heartbeat", "-h"],
  ["heartbeat", "extra"],
  ["heartbeat", "--model"],
  ["exited"],
  ["report", "--", "--item"],
  ["note"],
  ["note", "-x"],
  ["hook"],
  ["hook", "a", "b", "c"],
  ["gate", "now"],
  ["reconcile"],
  ["done", "--outcome"],
  ["nonesuch"],
];

test("every line the fast path accepts reaches the action with exactly commander's arguments (or its same error)", async () => {
  for (const argv of ACCEPTED) {
    const fast = await viaFast(argv);
    assert.ok(fast, `the fast path declined ${argv.join(" ")}`);
    assert.deepEqual(fast, await viaCommander(argv), argv.join(" "));
  }
});

test("a line the fast path declines is one commander answers with its own usage error or help", async () => {
  for (const argv of DECLINED) {
    assert.equal(await viaFast(argv), undefined, argv.join(" "));
    assert.match((await viaCommander(argv)).error ?? "", /^commander: /, argv.join(" "));
  }
});

test("every worker verb commander knows has its module in the fast path, and that module declares it", async () => {
  const program = new Command("docket");
  registerWorkerCommands(program, io);
  const names = program.commands[0]!.commands.map((c) => c.name()).sort();
  assert.deepEqual(Object.keys(VERB_MODULES).sort(), names);
  for (const name of names) {
    const { group, verbs } = recorder();
    for (const register of await VERB_MODULES[name]!()) register(group, io);
    assert.equal(verbs.get(name)?.unsupported, false, name);
    assert.equal(typeof verbs.get(name)?.action, "function", name);
  }
});
