// The dock's text: one line per worker within pi's 10 widget lines, the footer summary, chips and notifications.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { DockRow } from "../../../../src/engine/talk/parent-feed.js";
import {
  formatChipLine,
  formatDeliveries,
  formatDock,
  formatDockStatus,
  formatFoldedNotices,
  formatNotification,
  notificationBatches,
  notificationLevel,
} from "../../../../src/surfaces/pi/parent/dock.js";

const NOW = Date.parse("2026-01-01T00:10:00.000Z");
const row = (n: number, state: DockRow["state"], extra: Partial<DockRow> = {}): DockRow => ({
  worker: `w${n}`,
  kind: "default",
  task: `task ${n}`,
  state,
  liveness: "live",
  generation: 1,
  questions: 0,
  version: null,
  overlapsWith: null,
  baseMoved: 0,
  shared: 0,
  contained: false,
  updatedAt: "2026-01-01T00:00:00.000Z",
  createdAt: "2026-01-01T00:05:00.000Z",
  ...extra,
});

test("a dock line shows glyph, label, state, task, questions, version, overlap and age", () => {
  assert.deepEqual(formatDock([row(1, "needs_input", { questions: 2, version: 3, overlapsWith: "w4" })], NOW), [
    "? w1·default needs input · task 1 · 2 questions · v3 · overlaps w4 · 5m",
  ]);
  assert.deepEqual(formatDock([row(2, "thinking", { liveness: "gone" })], NOW), [
    "● w2·default thinking (gone) · task 2 · 5m",
  ]);
  assert.deepEqual(
    formatDock([row(3, "ready", { liveness: "gone", version: 1 })], NOW),
    ["✓ w3·default ready · task 3 · v1 · 5m"],
    "a finished worker's exit is no news",
  );
  assert.deepEqual(
    formatDock([row(4, "thinking", { contained: true })], NOW),
    ["● w4·default·contained thinking · task 4 · 5m"],
    "a contained worker says so",
  );
  const long = formatDock(
    [row(4, "idle", { task: "a very long task\nthat spans lines and goes on well past the width of the dock" })],
    NOW,
  )[0]!;
  assert.equal(long, "○ w4·default idle · a very long task that spans lines and goes on w… · 5m");
});

test("a dock line says when its base moved and how many notes it shared; a consulting worker says so and counts apart", () => {
  assert.deepEqual(formatDock([row(5, "idle", { baseMoved: 2, shared: 1 })], NOW), [
    "○ w5·default idle · task 5 · base moved · 2 files · 1 shared · 5m",
  ]);
  assert.deepEqual(formatDock([row(6, "consulting", { questions: 1, baseMoved: 1 })], NOW), [
    "⋯ w6·default consulting · task 6 · 1 question · base moved · 1 file · 5m",
  ]);
  assert.equal(formatDockStatus([row(6, "consulting"), row(7, "needs_input")]), "docket · 1 waiting · 1 consulting");
});

test("when workers do not fit in pi's 10 widget lines, those needing the human stay and the rest fold into one line", () => {
  const rows = Array.from({ length: 14 }, (_, i) =>
    row(i + 1, i === 11 ? "needs_input" : i === 12 ? "failed" : i === 13 ? "ready" : "idle"),
  );
  const lines = formatDock(rows, NOW);
  assert.equal(lines.length, 10);
  assert.deepEqual(
    lines.slice(0, 9).map((l) => l.split(" ")[1]),
    [
      "w1·default",
      "w2·default",
      "w3·default",
      "w4·default",
      "w5·default",
      "w6·default",
      "w12·default",
      "w13·default",
      "w14·default",
    ],
  );
  assert.equal(lines[9], "… 5 more: 5 running · /docket ls");
  assert.equal(formatDock(rows, NOW, 9).length, 9, "a chip line takes one line of the budget");
  assert.equal(formatDock(rows.slice(0, 10), NOW).length, 10, "ten workers fit without folding");
});

test("the footer counts waiting, failed, ready and running workers", () => {
  assert.equal(formatDockStatus([]), undefined);
  assert.equal(
    formatDockStatus([
      row(1, "needs_input"),
      row(2, "failed"),
      row(3, "ready"),
      row(4, "ready"),
      row(5, "stale"),
      row(6, "starting"),
    ]),
    "docket · 1 waiting · 1 failed · 2 ready · 2 running",
  );
});

test("queued chips show as one line with how to drop them", () => {
  assert.deepEqual(formatChipLine([]), []);
  assert.deepEqual(formatChipLine([{ id: "c1", ref: "worker-deliverable:w1:1" }]), [
    "⧉ attached to your next prompt: worker-deliverable:w1:1 · /docket chips drop c1",
  ]);
  assert.deepEqual(
    formatChipLine([
      { id: "c1", ref: "a" },
      { id: "c2", ref: "b" },
    ]),
    ["⧉ attached to your next prompt: a, b · /docket chips"],
  );
});

test("notifications name worker and item; news is information, a worker waiting on the human a warning, a failure an error", () => {
  assert.equal(
    formatNotification({ kind: "blocked", worker: "w1", item: "t3", body: "needs a key", forHuman: ["ask ops"] }),
    "docket · w1 · t3 is blocked: needs a key\n  ask ops",
  );
  assert.deepEqual(["ready", "outcome", "question", "blocked", "failed"].map(notificationLevel), [
    "info",
    "info",
    "warning",
    "warning",
    "error",
  ]);
  const n = (kind: string, worker: string) => ({ id: "n", kind, worker, item: null, body: "b", forHuman: [] });
  assert.deepEqual(
    notificationBatches([n("failed", "w1"), n("ready", "w2"), n("question", "w3"), n("ready", "w4")]).map((b) => [
      b.level,
      b.text.split("\n").length,
    ]),
    [
      ["info", 2],
      ["warning", 1],
      ["error", 1],
    ],
  );
});

test("older notices fold into one line, and a message's delivery shows until a minute after it was read", () => {
  assert.equal(
    formatFoldedNotices(1),
    "docket · 1 older notice (already judged, answered or deleted) not shown · /docket attention lists them",
  );
  const d = (message: string, delivery: "queued" | "delivered" | "read", workerExited = false) => ({
    message,
    worker: "w2",
    delivery,
    workerExited,
  });
  const readSeen = new Map([
    ["m1", NOW - 120_000],
    ["m2", NOW - 30_000],
  ]);
  assert.deepEqual(
    formatDeliveries([d("m1", "read"), d("m2", "read"), d("m3", "delivered"), d("m4", "queued", true)], NOW, readSeen),
    [
      "✉ m2 → w2 · read ✓",
      "✉ m3 → w2 · delivered",
      "✉ m4 → w2 · queued · w2 is not running: docket respawn w2 delivers it",
    ],
  );
});
