// Base moved on plain data: landed files a worker read, edited or plans to edit, after it started, except promotions
// crediting it; and the lines the dock and the card show.

import { test } from "node:test";
import assert from "node:assert/strict";
import { formatBaseMoved, formatProducedBefore, resolveBaseMoved } from "../../../src/domain/review/base-moved.js";

const landed = [
  { at: "2026-01-01T10:00:00.000Z", paths: ["src/a.ts", "src/b.ts"], workers: ["w1"], ref: "worker-deliverable:w1:1" },
  { at: "2026-01-01T12:00:00.000Z", paths: ["src/c.ts"], workers: ["w2", "w3"], ref: "combined:w2+w3:1" },
  { at: "2026-01-01T13:00:00.000Z", paths: ["docs/plan.md"], workers: ["w4"], ref: "worker-deliverable:w4:1" },
];

test("only files it works on that landed after it started, from promotions that do not credit it", () => {
  const moved = resolveBaseMoved(
    "w3",
    "2026-01-01T09:00:00.000Z",
    { touched: ["src/a.ts", "src/c.ts", "README.md"] },
    landed,
  );
  assert.deepEqual(
    moved,
    { files: ["src/a.ts"], refs: ["worker-deliverable:w1:1"] },
    "w3's own combined promotion is not a warning",
  );
  assert.deepEqual(
    resolveBaseMoved("w5", "2026-01-01T11:00:00.000Z", { touched: ["src/a.ts"] }, landed).files,
    [],
    "landed before it started",
  );
});

test("an approved plan's entries count as files it plans to edit, read as the plan contract reads them", () => {
  assert.deepEqual(
    resolveBaseMoved("w5", "2026-01-01T00:00:00.000Z", { touched: [], planned: ["docs/", "b.ts"] }, landed).files,
    ["docs/plan.md", "src/b.ts"],
  );
});

test("the dock line counts files; the card names them, shortened", () => {
  assert.equal(formatBaseMoved({ files: ["a", "b"], refs: [] }), "base moved · 2 files");
  assert.equal(formatBaseMoved({ files: ["a"], refs: [] }), "base moved · 1 file");
  assert.equal(formatBaseMoved({ files: [], refs: [] }), undefined);
  assert.equal(
    formatProducedBefore(["src/a.ts", "src/b.ts"]),
    "produced before src/a.ts, src/b.ts landed · re-check before promoting",
  );
  assert.ok(formatProducedBefore(Array.from({ length: 20 }, (_, i) => `src/file-${i}.ts`)).includes("…"));
});
