// The worker activity log: one JSON line per append, rotated to events.1.ndjson once it passes the size cap.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appendEventLine } from "../../../src/files/workers/events-log.js";
import { tempDir } from "../../support/temp.js";

test("events are appended as JSON lines and the file rotates once it reaches the cap", (t) => {
  const dir = tempDir(t);
  const path = join(dir, "w1", "events.ndjson");
  appendEventLine(path, { type: "tool_start", tool: "read" }, 100);
  appendEventLine(path, { type: "tool_end", tool: "read", text: "x".repeat(80) }, 100);
  assert.deepEqual(
    readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).type),
    ["tool_start", "tool_end"],
  );
  appendEventLine(path, { type: "message" }, 100);
  assert.deepEqual(
    readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).type),
    ["message"],
  );
  assert.equal(
    readFileSync(join(dir, "w1", "events.1.ndjson"), "utf8")
      .trim()
      .split("\n").length,
    2,
  );
});
