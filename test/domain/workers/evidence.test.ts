// Evidence as pure rules (src/domain/workers/evidence.ts): a dead pane's exit and last words, when silence is stuck,
// which recorded findings still hold for the row as it is now.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  deadPaneReason,
  findingsView,
  isStuck,
  readDeadPane,
  stuckText,
} from "../../../src/domain/workers/evidence.js";
import { resolveDisplayState, type LifecycleView } from "../../../src/domain/workers/lifecycle.js";

test("a dead pane's screen gives its exit status (or signal) and its last non-blank lines", () => {
  const screen =
    "starting\nbwrap: Can't bind mount /x on /y: No such file\n\n\nPane is dead (status 1, Fri Dec  4 21:00:00 2026)";
  const dead = readDeadPane(screen);
  assert.deepEqual(dead, { code: 1, lastLines: ["starting", "bwrap: Can't bind mount /x on /y: No such file"] });
  assert.equal(
    deadPaneReason(dead),
    "its process died before reporting (exit 1); its last lines: starting ⏎ bwrap: Can't bind mount /x on /y: No such file",
  );
  const killed = readDeadPane("working\u001b[31m\nPane is dead (signal 9, Fri Dec  4 21:00:00 2026)");
  assert.equal(killed.code, 137);
  assert.match(
    deadPaneReason(killed),
    /^its process died before reporting \(killed by signal 9\); its last lines: working/,
  );
  assert.doesNotMatch(deadPaneReason(killed), /\u001b/, "no control bytes from the pane");
  assert.match(deadPaneReason("window-gone"), /window was closed before the worker reported/);
});

test("stuck only for a working worker silent for stuckMs; 0 turns it off", () => {
  const now = Date.parse("2026-12-04T21:10:00Z");
  const quiet = Date.parse("2026-12-04T21:00:00Z");
  assert.equal(isStuck("active", quiet, now, 10 * 60_000), true);
  assert.equal(isStuck("starting", quiet, now, 10 * 60_000), true);
  assert.equal(isStuck("active", quiet + 1, now, 10 * 60_000), false);
  assert.equal(isStuck("idle", quiet, now, 10 * 60_000), false, "idle waits for the human: not stuck");
  assert.equal(isStuck("active", quiet, now, 0), false);
  assert.equal(
    stuckText(3_000),
    "no sign of progress (heartbeat, call, tool or screen change) for 3 s (worker.stuckMinutes)",
  );
  assert.match(stuckText(10 * 60_000), /for 10 min/);
});

test("findings hold while the row is working: blocked outranks stuck, a signal after a stuck finding ends it", () => {
  const row = { state: "active" as const, heartbeatAt: null, updatedAt: "2026-12-04T21:00:00.000Z", lastError: null };
  const stuck = { kind: "stuck" as const, text: "silent", foundAt: "2026-12-04T21:05:00.000Z" };
  const blocked = { kind: "blocked" as const, text: "Error: 401", foundAt: "2026-12-04T21:06:00.000Z" };
  const refused = {
    kind: "refused" as const,
    text: "its done call was refused: x",
    foundAt: "2026-12-04T21:07:00.000Z",
  };
  assert.deepEqual(findingsView(row, [stuck]), { stuck: true, reason: "silent" });
  assert.deepEqual(findingsView({ ...row, heartbeatAt: "2026-12-04T21:05:01.000Z" }, [stuck]), { reason: null });
  assert.deepEqual(findingsView(row, [stuck, blocked, refused]), { blocked: true, stuck: true, reason: "Error: 401" });
  assert.deepEqual(findingsView(row, [refused]), { reason: refused.text });
  assert.deepEqual(findingsView({ ...row, state: "ready" }, [blocked]), { reason: null });
  assert.deepEqual(findingsView({ ...row, state: "failed", lastError: "died" }, [blocked]), { reason: "died" });

  const view: LifecycleView = {
    state: "active",
    agent: "pi",
    exited: false,
    heartbeatAt: "2026-12-04T21:09:59.000Z",
    updatedAt: row.updatedAt,
    reviewedAt: null,
    paneCapturedAt: null,
    pane: "alive",
  };
  const now = Date.parse("2026-12-04T21:10:00Z");
  assert.equal(resolveDisplayState(view, now), "thinking");
  assert.equal(resolveDisplayState({ ...view, findings: { blocked: true } }, now), "blocked");
  assert.equal(resolveDisplayState({ ...view, findings: { stuck: true } }, now), "stuck");
  assert.equal(resolveDisplayState({ ...view, state: "needs_input", findings: { blocked: true } }, now), "needs_input");
});
