// A worker's todo board: bounded, cleaned, with safe unique ids and only known states.

import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveTodos } from "../../../src/domain/workers/todos.js";
import { isDocketError } from "../../../src/domain/errors.js";

test("the board keeps at most 12 items and drops empty texts", () => {
  const items = [{ text: "  " }, ...Array.from({ length: 14 }, (_, i) => ({ text: `step ${i + 1}` }))];
  const r = resolveTodos(items);
  assert.equal(r.todos.length, 12);
  assert.equal(r.dropped, 3);
  assert.deepEqual(r.todos[0], { id: "t1", text: "step 1", state: "pending" });
  assert.equal(r.todos[11]!.id, "t12");
});

test("texts are whitespace-collapsed and cut at 200 characters", () => {
  const r = resolveTodos([{ text: "a\n\n  b\tc" }, { text: "x".repeat(300) }]);
  assert.equal(r.todos[0]!.text, "a b c");
  assert.equal(r.todos[1]!.text.length, 200);
  assert.ok(r.todos[1]!.text.endsWith("…"));
});

test("ids are sanitised to [A-Za-z0-9_-], at most 32 characters, unique, defaulting to t<N>", () => {
  const r = resolveTodos([
    { id: "../../etc/passwd", text: "a" },
    { id: "a".repeat(40), text: "b" },
    { id: "etcpasswd", text: "dup" },
    { id: "!!!", text: "c" },
  ]);
  assert.deepEqual(
    r.todos.map((t) => t.id),
    ["etcpasswd", "a".repeat(32), "t3", "t4"],
  );
});

test("known and legacy states are accepted; an unknown state is refused with the allowed words", () => {
  const r = resolveTodos([
    { text: "a", state: "in_progress" },
    { text: "b", state: "done" },
    { text: "c", state: "active" },
    { text: "d", state: "todo" },
  ]);
  assert.deepEqual(
    r.todos.map((t) => t.state),
    ["in_progress", "completed", "in_progress", "pending"],
  );
  assert.throws(
    () => resolveTodos([{ text: "a", state: "finished" }]),
    (e) =>
      isDocketError(e) &&
      e.code === "todo-state-invalid" &&
      e.message === 'todo 1 has state "finished"; use one of pending, in_progress, completed',
  );
});
