// Lifecycle rules on plain data: display states, liveness, exits and heartbeats.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  isSettled,
  isStalledStart,
  resolveDisplayState,
  resolveExit,
  resolveHeartbeatState,
  resolveLiveness,
  type LifecycleView,
  type StartView,
} from "../../../src/domain/workers/lifecycle.js";

const NOW = Date.parse("2026-01-01T12:00:00.000Z");
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();
const view = (over: Partial<LifecycleView> = {}): LifecycleView => ({
  state: "active",
  agent: "pi",
  exited: false,
  heartbeatAt: ago(5),
  updatedAt: ago(5),
  reviewedAt: null,
  paneCapturedAt: null,
  pane: "alive",
  ...over,
});

test("liveness: a fresh heartbeat with a live pane is live; exit, a dead or missing pane, or a long silence is gone", () => {
  assert.equal(resolveLiveness(view(), NOW), "live");
  assert.equal(resolveLiveness(view({ exited: true }), NOW), "gone");
  assert.equal(resolveLiveness(view({ pane: "dead" }), NOW), "gone");
  assert.equal(resolveLiveness(view({ pane: "missing" }), NOW), "gone");
  assert.equal(resolveLiveness(view({ paneCapturedAt: ago(1) }), NOW), "gone");
  assert.equal(resolveLiveness(view({ heartbeatAt: ago(181) }), NOW), "gone");
});

test("liveness without any heartbeat is unknown for pi, and live for a running command agent", () => {
  assert.equal(resolveLiveness(view({ heartbeatAt: null }), NOW), "unknown");
  assert.equal(resolveLiveness(view({ heartbeatAt: null, pane: "unprobed" }), NOW), "unknown");
  assert.equal(resolveLiveness(view({ heartbeatAt: null, agent: "command" }), NOW), "live");
});

test("display state follows the derivation order: needs_input, reviewed, terminal, stale, thinking, starting, idle", () => {
  assert.equal(resolveDisplayState(view({ state: "needs_input", reviewedAt: ago(1) }), NOW), "needs_input");
  assert.equal(resolveDisplayState(view({ state: "ready", reviewedAt: ago(1) }), NOW), "reviewed");
  assert.equal(resolveDisplayState(view({ state: "ready" }), NOW), "ready");
  assert.equal(resolveDisplayState(view({ state: "failed" }), NOW), "failed");
  assert.equal(
    resolveDisplayState(view({ state: "active", heartbeatAt: ago(100), updatedAt: ago(100) }), NOW),
    "stale",
  );
  assert.equal(resolveDisplayState(view({ state: "active" }), NOW), "thinking");
  assert.equal(
    resolveDisplayState(view({ state: "starting", heartbeatAt: null, updatedAt: ago(500) }), NOW),
    "starting",
  );
  assert.equal(resolveDisplayState(view({ state: "idle" }), NOW), "idle");
  assert.equal(
    resolveDisplayState(view({ state: "active", agent: "command", heartbeatAt: null, updatedAt: ago(500) }), NOW),
    "thinking",
  );
});

test("an exit ends a worker that reported, fails one that did not with the exit code, and keeps terminal words", () => {
  assert.deepEqual(resolveExit("ready", true, 0), { state: "ended" });
  assert.deepEqual(resolveExit("idle", true, 1), { state: "ended" });
  assert.deepEqual(resolveExit("active", false, 3), {
    state: "failed",
    error: "worker process exited before reporting (exit 3)",
  });
  assert.deepEqual(resolveExit("failed", false, 0), { state: "failed" });
  assert.deepEqual(resolveExit("ended", false, 0), { state: "ended" });
});

test("a heartbeat moves only a starting worker to active", () => {
  assert.equal(resolveHeartbeatState("starting"), "active");
  for (const s of ["active", "idle", "needs_input", "ready", "failed", "ended"] as const)
    assert.equal(resolveHeartbeatState(s), s);
});

test("settled means ended, or reviewed in a terminal state", () => {
  assert.equal(isSettled({ state: "ended", reviewedAt: null }), true);
  assert.equal(isSettled({ state: "ready", reviewedAt: ago(1) }), true);
  assert.equal(isSettled({ state: "ready", reviewedAt: null }), false);
  assert.equal(isSettled({ state: "idle", reviewedAt: ago(1) }), false);
});

test("a start is given up when it has no window and its spawner died past the grace, or stayed quiet past the limit", () => {
  const start = (over: Partial<StartView> = {}): StartView => ({
    state: "starting",
    exited: false,
    windowId: null,
    updatedAt: ago(20),
    spawnerAlive: false,
    ...over,
  });
  assert.equal(isStalledStart(start(), NOW), true, "no window 20 s on, spawner gone");
  assert.equal(
    isStalledStart(start({ updatedAt: ago(5) }), NOW),
    false,
    "within the grace a dead spawner may not be noticed yet",
  );
  assert.equal(
    isStalledStart(start({ spawnerAlive: true, updatedAt: ago(120) }), NOW),
    false,
    "a slow start whose spawner still runs is left alone",
  );
  assert.equal(isStalledStart(start({ spawnerAlive: true, updatedAt: ago(11 * 60) }), NOW), true, "but not for ever");
  assert.equal(isStalledStart(start({ windowId: "@3" }), NOW), false, "a start that got its window is not stalled");
  assert.equal(isStalledStart(start({ state: "active" }), NOW), false, "a worker that spoke is not starting");
  assert.equal(isStalledStart(start({ exited: true }), NOW), false, "an exited one is settled elsewhere");
});
