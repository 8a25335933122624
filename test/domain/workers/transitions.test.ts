// Every worker state change is one pure transition (current row + event → patch): the table below is the whole
// lifecycle, and nothing outside it moves a state (the architecture test keeps `state:` out of the engine's updates).

import { test } from "node:test";
import assert from "node:assert/strict";
import { failedBy, transition, type LifecycleRow } from "../../../src/domain/workers/lifecycle.js";

const NOW = "2026-12-01T10:00:00.000Z";
const row = (state: LifecycleRow["state"], extra: Partial<LifecycleRow> = {}): LifecycleRow => ({
  state,
  agent: "pi",
  hasDeliverable: false,
  ...extra,
});

test("the protocol calls: wait asks (needs_input), fail gives up with its reason, done publishes (ready, unreviewed, no error)", () => {
  assert.deepEqual(transition(row("active"), { kind: "asked" }, NOW), { state: "needs_input" });
  assert.deepEqual(transition(row("active"), { kind: "gave-up", reason: "no network" }, NOW), {
    state: "failed",
    lastError: "no network",
  });
  assert.deepEqual(transition(row("needs_input"), { kind: "published" }, NOW), {
    state: "ready",
    lastError: null,
    reviewedAt: null,
  });
});

test("an answer reactivates a waiting worker only when it was the last open question", () => {
  assert.deepEqual(transition(row("needs_input"), { kind: "answered", openQuestions: 0 }, NOW), { state: "active" });
  assert.deepEqual(transition(row("needs_input"), { kind: "answered", openQuestions: 1 }, NOW), {});
  assert.deepEqual(transition(row("ready"), { kind: "answered", openQuestions: 0 }, NOW), {});
});

test("heartbeats and turns: a heartbeat starts a starting worker; turns move only between starting, idle and active", () => {
  assert.deepEqual(transition(row("starting"), { kind: "heartbeat" }, NOW), { heartbeatAt: NOW, state: "active" });
  assert.deepEqual(transition(row("ready"), { kind: "heartbeat" }, NOW), { heartbeatAt: NOW });
  assert.deepEqual(transition(row("idle"), { kind: "turn", edge: "start" }, NOW), { state: "active" });
  assert.deepEqual(transition(row("starting"), { kind: "turn", edge: "end" }, NOW), { state: "idle" });
  assert.deepEqual(transition(row("needs_input"), { kind: "turn", edge: "end" }, NOW), {});
});

test("an exit settles the row: ended after a deliverable, failed (with the reason, a notification) before one", () => {
  const ended = transition(row("active", { hasDeliverable: true }), { kind: "exited", code: 0 }, NOW);
  assert.deepEqual(ended, { exited: true, exitCode: 0, exitedAt: NOW, state: "ended", settledAt: NOW });
  const failed = transition(row("active"), { kind: "exited", code: 3 }, NOW);
  assert.deepEqual(failed, {
    exited: true,
    exitCode: 3,
    exitedAt: NOW,
    state: "failed",
    lastError: "worker process exited before reporting (exit 3)",
    settledAt: NOW,
  });
  assert.equal(failedBy(row("active"), failed), true);
  assert.equal(failedBy(row("failed"), transition(row("failed"), { kind: "exited", code: 1 }, NOW)), false);
});

test("launches: a window recorded makes a starting command worker active; a respawn resets everything a generation owns", () => {
  const ids = { session: "docket", windowId: "@1", paneId: "%1" };
  assert.deepEqual(transition(row("starting", { agent: "command" }), { kind: "launched", ...ids }, NOW), {
    tmuxSession: "docket",
    windowId: "@1",
    paneId: "%1",
    state: "active",
  });
  assert.deepEqual(transition(row("starting"), { kind: "launched", ...ids }, NOW), {
    tmuxSession: "docket",
    windowId: "@1",
    paneId: "%1",
  });
  assert.deepEqual(transition(row("ready", { agent: "command" }), { kind: "launched", ...ids }, NOW).state, undefined);
  assert.deepEqual(transition(row("failed"), { kind: "respawned" }, NOW), {
    state: "starting",
    exited: false,
    exitCode: null,
    exitedAt: null,
    lastError: null,
    heartbeatAt: null,
    windowId: null,
    paneId: null,
    paneCapturedAt: null,
    reviewedAt: null,
    settledAt: null,
  });
});

test("starts that fail: a failed spawn (retired when nothing started), a failed relaunch, an abandoned start", () => {
  assert.deepEqual(transition(row("starting"), { kind: "spawn-failed", reason: "no tmux", retire: true }, NOW), {
    state: "failed",
    lastError: "no tmux",
    exited: true,
    exitedAt: NOW,
    paneCapturedAt: NOW,
    deletedAt: NOW,
  });
  assert.deepEqual(transition(row("starting"), { kind: "launch-failed", reason: "no tmux" }, NOW), {
    state: "failed",
    lastError: "no tmux",
    exited: true,
    exitedAt: NOW,
  });
  assert.deepEqual(transition(row("starting"), { kind: "start-abandoned", reason: "gone" }, NOW), {
    state: "failed",
    lastError: "gone",
    exited: true,
    exitedAt: NOW,
    settledAt: NOW,
    paneCapturedAt: NOW,
  });
});
