// The pure halves of `/docket`: splitting the argument text like a shell, and completing verbs, workers and refs.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { DockRow } from "../../../../src/engine/talk/parent-feed.js";
import { completeDocket, registerParentRole } from "../../../../src/surfaces/pi/parent/role.js";
import { tokenize } from "../../../../src/surfaces/pi/parent/tokenize.js";

test("plain words split on any run of whitespace", () => {
  assert.deepEqual(tokenize("  spawn   --yes\tfix the bug \n"), ["spawn", "--yes", "fix", "the", "bug"]);
  assert.deepEqual(tokenize(""), []);
  assert.deepEqual(tokenize("   "), []);
});

test('single quotes keep everything literally, double quotes allow only \\" \\\\ \\$ and \\` escapes', () => {
  assert.deepEqual(tokenize(`tell w1 'it\\'s'`), ["tell", "w1", "it\\s"]);
  assert.deepEqual(tokenize(`tell w1 'say "hi" \\n now'`), ["tell", "w1", 'say "hi" \\n now']);
  assert.deepEqual(tokenize(`tell w1 "say \\"hi\\" \\n \\\\ \\$HOME"`), ["tell", "w1", 'say "hi" \\n \\ $HOME']);
});

test("a backslash outside quotes escapes the next character, a space included", () => {
  assert.deepEqual(tokenize("item add a\\ b c\\'d"), ["item", "add", "a b", "c'd"]);
  assert.deepEqual(tokenize("trailing\\"), ["trailing\\"]);
});

test("quotes join with adjacent text, empty quotes make an empty argument, newlines in quotes are kept", () => {
  assert.deepEqual(tokenize(`--cmd='sleep 60' x""y ""`), ["--cmd=sleep 60", "xy", ""]);
  assert.deepEqual(tokenize(`tell w1 "line one\nline two"`), ["tell", "w1", "line one\nline two"]);
  assert.deepEqual(tokenize(`spawn --agent command --cmd 'sleep 60' --yes task`), [
    "spawn",
    "--agent",
    "command",
    "--cmd",
    "sleep 60",
    "--yes",
    "task",
  ]);
});

test("an unterminated quote takes the rest of the line as one argument", () => {
  assert.deepEqual(tokenize(`tell w1 "don't stop`), ["tell", "w1", "don't stop"]);
});

const row = (worker: string, version: number | null, state: DockRow["state"] = "idle"): DockRow => ({
  worker,
  kind: "default",
  task: `task of ${worker}`,
  state,
  liveness: "live",
  generation: 1,
  questions: 0,
  version,
  overlapsWith: null,
  baseMoved: 0,
  shared: 0,
  contained: false,
  updatedAt: "2026-01-01T00:00:00.000Z",
  createdAt: "2026-01-01T00:00:00.000Z",
});
const values = (items: { value: string }[] | null) => (items ?? []).map((i) => i.value);

test("the first word completes to CLI verbs with their descriptions, through the registered command", async () => {
  let completer: ((prefix: string) => unknown) | undefined;
  const fakePi = {
    registerCommand: (name: string, spec: { getArgumentCompletions?: (p: string) => unknown }) => {
      assert.equal(name, "docket");
      completer = spec.getArgumentCompletions;
    },
    registerShortcut: () => undefined,
    registerTool: () => undefined,
    on: () => undefined,
  } as unknown as ExtensionAPI;
  registerParentRole(fakePi);
  const items = (await completer!("sp")) as { value: string; label: string; description?: string }[];
  assert.deepEqual(
    items.map((i) => i.value),
    ["spawn", "spend"],
  );
  assert.match(items[0]!.description ?? "", /start one worker/);
  const all = (await completer!("")) as { value: string }[];
  for (const verb of [
    "spawn",
    "ls",
    "show",
    "peek",
    "tell",
    "attach",
    "verdict",
    "approve",
    "reject",
    "revise",
    "answer",
    "promote",
    "discard",
    "use",
    "item",
    "dispatch",
    "attention",
    "save",
    "load",
    "deliverables",
    "log",
    "kinds",
    "fleet",
  ]) {
    assert.ok(
      all.some((i) => i.value === verb),
      `verb ${verb} is offered`,
    );
  }
  assert.equal(await completer!("zzz"), null);
});

test("a word typed out exactly offers nothing, so Enter runs the command instead of completing it", () => {
  const rows = () => [row("w1", null), row("w12", null)];
  assert.equal(completeDocket("ls", rows), null);
  assert.equal(completeDocket("item add", rows), null);
  assert.equal(completeDocket("show w1", rows), null);
  assert.deepEqual(values(completeDocket("show w1", () => [row("w12", null)])), ["show w12"]);
});

test("a group's subcommands complete after its verb, replacing the whole argument text", () => {
  assert.deepEqual(values(completeDocket("item a", () => [])), ["item add"]);
  assert.ok(values(completeDocket("worker ", () => [])).includes("worker done"));
  assert.equal(
    completeDocket("item add some text", () => []),
    null,
  );
});

test("workers complete for worker verbs, and review verbs also offer the current deliverable ref", () => {
  const rows = () => [row("w1", null), row("w2", 3, "ready"), row("w12", null)];
  assert.deepEqual(values(completeDocket("peek w", rows)), ["peek w1", "peek w2", "peek w12"]);
  assert.deepEqual(values(completeDocket("approve ", rows)), [
    "approve w1",
    "approve w2",
    "approve worker-deliverable:w2:3",
    "approve w12",
  ]);
  assert.deepEqual(values(completeDocket("approve worker-", rows)), ["approve worker-deliverable:w2:3"]);
  assert.deepEqual(
    values(completeDocket("choose ", rows)),
    ["choose worker-deliverable:w2:3"],
    "choose offers only exact refs: it refuses a bare worker id",
  );
  const described = completeDocket("show w", rows)!;
  assert.equal(described[1]!.description, "ready · task of w2");
  assert.equal(completeDocket("kinds w", rows), null, "kinds takes no worker");
  assert.equal(completeDocket("tell w1 some", rows), null, "only the first argument is a worker");
  assert.equal(
    completeDocket("show w", () => {
      throw new Error("ledger locked");
    }),
    null,
  );
});
