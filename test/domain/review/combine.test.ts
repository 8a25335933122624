// Combine's pure rules: marker lines (and what counts as a side's own), relabelling git's markers by worker and task,
// the diff3 form of a whole-file conflict, residue in a combined patch, the card's summary line, combined refs.

import { combinedKey, combinedRef, parseCombinedRef } from "../../../src/domain/deliverables/refs.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { validateCombined } from "../../../src/domain/deliverables/combined.js";
import {
  formatMergeSummary,
  markerLines,
  patchResidue,
  relabelMarkers,
  residueLines,
  sideLabel,
  wholeFileConflict,
} from "../../../src/domain/review/combine.js";

const OURS = "a".repeat(40);
const THEIRS = "b".repeat(40);
const BASE = "c".repeat(40);

test("marker lines are seven <, | or > alone or before a label; ======= is ordinary text", () => {
  assert.deepEqual(
    markerLines("x\n<<<<<<< w1\ny\n||||||| base\n=======\n>>>>>>>\n<<<<<<<< eight\n<<<<<<<tight\n"),
    [2, 4, 6],
  );
});

test("marker lines a side already had in its own file are not residue; any other one is", () => {
  const own = "doc:\n<<<<<<< example in a test fixture\n";
  assert.deepEqual(residueLines(`${own}more\n`, [own, null]), []);
  assert.deepEqual(residueLines(`${own}<<<<<<< w1 · x\n`, [own, null]), [3]);
});

test("git's markers get the workers' labels; a marker-like line written by a worker keeps its text", () => {
  const text = [
    `<<<<<<< ${OURS}`,
    "ours",
    `||||||| ${BASE.slice(0, 7)}`,
    "base",
    "=======",
    "theirs",
    `>>>>>>> ${THEIRS}`,
    "<<<<<<< a worker's own line",
  ].join("\n");
  const labels = {
    ours: sideLabel("w2", "add a per-tenant\nrate limit"),
    theirs: sideLabel("w3", "cache the quotas"),
    base: "base · what both started from",
  };
  assert.equal(
    relabelMarkers(text, { ours: OURS, theirs: THEIRS, base: BASE }, labels),
    [
      "<<<<<<< w2 · add a per-tenant rate limit",
      "ours",
      "||||||| base · what both started from",
      "base",
      "=======",
      "theirs",
      ">>>>>>> w3 · cache the quotas",
      "<<<<<<< a worker's own line",
    ].join("\n"),
  );
});

test("a whole-file conflict is written in diff3 form, saying which side deleted it or is binary and where to copy it from", () => {
  const labels = { ours: "w1 · t", theirs: "w2 · t", base: "base · what both started from" };
  assert.equal(
    wholeFileConflict(labels, {
      ours: { kind: "absent" },
      base: { kind: "text", text: "a\n" },
      theirs: { kind: "text", text: "A\n" },
    }),
    [
      "<<<<<<< w1 · t (no such file on this side: deleted, or never there)",
      "||||||| base · what both started from",
      "a",
      "=======",
      "A",
      ">>>>>>> w2 · t",
      "",
    ].join("\n"),
  );
  assert.match(
    wholeFileConflict(labels, {
      ours: { kind: "binary", bytes: 7, copy: "sides/w1/x.png" },
      base: { kind: "absent" },
      theirs: { kind: "binary", bytes: 9, copy: "sides/w2/x.png" },
    }),
    /^<<<<<<< w1 · t \(binary, 7 bytes: sides\/w1\/x\.png\)$/m,
  );
});

test("residue in a combined patch: added marker lines neither source patch added", () => {
  const src = "+++ b/a.txt\n+<<<<<<< fixture\n";
  const combined = "+++ b/a.txt\n+<<<<<<< fixture\n+++ b/b.txt\n+>>>>>>> w2 · t\n+ok\n";
  assert.deepEqual(patchResidue(combined, [src, ""]), [{ path: "b.txt", lines: [">>>>>>> w2 · t"] }]);
  assert.deepEqual(patchResidue(src, [src]), []);
});

test("the card's line before anything is chosen: merges clean, N files, or K conflicts in M files", () => {
  assert.equal(formatMergeSummary({ clean: true, files: 2, conflicts: 0 }), "merges clean, 2 files");
  assert.equal(formatMergeSummary({ clean: false, files: 1, conflicts: 2 }), "2 conflicts in 1 file");
  assert.equal(formatMergeSummary({ clean: false, files: 3, conflicts: 1 }), "1 conflict in 3 files");
});

test("combined refs name the lower worker first; anything else is not a combined ref", () => {
  assert.equal(combinedKey("w10", "w9"), "w9+w10");
  assert.equal(combinedRef("w2+w3", 1), "combined:w2+w3:1");
  assert.deepEqual(parseCombinedRef("combined:w2+w3:1"), { key: "w2+w3", workers: ["w2", "w3"], version: 1 });
  assert.deepEqual(parseCombinedRef("combined:w2+w3"), { key: "w2+w3", workers: ["w2", "w3"] });
  for (const bad of ["combined:w3+w2:1", "combined:w2+w2:1", "combined:w2:1", "worker-deliverable:w2:1"])
    assert.equal(parseCombinedRef(bad), undefined, bad);
});

test("a combined sidecar is validated like any: wrong pair, version or change-set ref is invalid and never repaired", () => {
  const d = {
    schemaVersion: 1,
    id: "combined:w1+w2",
    version: 1,
    ref: "combined:w1+w2:1",
    createdAt: "t",
    operation: "op",
    outcome: "completed",
    summary: "s",
    body: "b",
    sources: [
      { worker: "w1", ref: "worker-deliverable:w1:1", version: 1, sha256: "x", task: "t" },
      { worker: "w2", ref: "worker-deliverable:w2:1", version: 1, sha256: "y", task: "t" },
    ],
    resolution: { kind: "clean", contested: [] },
    changeSet: {
      ref: "combined-changes:w1+w2:1",
      base: "b",
      files: [{ path: "a", additions: 1, deletions: 0 }],
      stat: "",
      hunks: 1,
      patch: "p",
    },
  };
  assert.equal(validateCombined(d, { key: "w1+w2", version: 1 }).ok, true);
  const wrong = validateCombined({ ...d, ref: "combined:w1+w2:2" }, { key: "w1+w2", version: 1 });
  assert.equal(wrong.ok, false);
  assert.equal(validateCombined(d, { key: "w1+w3", version: 1 }).ok, false);
});
