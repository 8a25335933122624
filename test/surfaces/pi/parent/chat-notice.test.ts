import { test } from "node:test";
import assert from "node:assert/strict";
import { BLOCK_MAX_LINES, chatMoved, notice } from "../../../../src/surfaces/pi/parent/chat-notice.js";

// pi's TUI replaces an info line with the next one; Docket's consecutive info lines grow one block instead.

const recorder = () => {
  const calls: [string, string][] = [];
  return { calls, ui: { notify: (text: string, level?: string) => void calls.push([level ?? "info", text]) } };
};

test("in the TUI consecutive info lines accumulate, and a warning, an error or chat activity starts a new block", () => {
  const { calls, ui } = recorder();
  chatMoved();
  notice(ui, "docket · w2 is ready for review", "info", true);
  notice(ui, "t3 added", "info", true);
  assert.deepEqual(
    calls.at(-1),
    ["info", "docket · w2 is ready for review\nt3 added"],
    "the result does not wipe the news",
  );
  notice(ui, "docket · w3 asks: which?", "warning", true);
  notice(ui, "t4 added", "info", true);
  assert.deepEqual(calls.slice(-2), [
    ["warning", "docket · w3 asks: which?"],
    ["info", "t4 added"],
  ]);
  chatMoved();
  notice(ui, "t5 added", "info", true);
  assert.deepEqual(calls.at(-1), ["info", "t5 added"]);
  for (let i = 0; i < BLOCK_MAX_LINES + 5; i++) notice(ui, `line ${i}`, "info", true);
  const last = calls.at(-1)![1].split("\n");
  assert.equal(last.length, BLOCK_MAX_LINES);
  assert.equal(last.at(-1), `line ${BLOCK_MAX_LINES + 4}`);
});

test("outside the TUI (RPC) every notification is its own event", () => {
  const { calls, ui } = recorder();
  chatMoved();
  notice(ui, "a", "info", false);
  notice(ui, "b", "info", false);
  assert.deepEqual(calls, [
    ["info", "a"],
    ["info", "b"],
  ]);
});
