// The pure patch-integrity rule on plain data: a patch passes only when its diff --git sections are exactly what git
// read (files, counts, binary-ness, modes), and the file list is taken from git's reading.

import { test } from "node:test";
import assert from "node:assert/strict";
import { parseGitReading, resolvePatchIntegrity } from "../../../src/domain/deliverables/patch-integrity.js";

const TEXT = "diff --git a/a.ts b/a.ts\nindex 1111111..2222222 100644\n--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-a\n+A\n";
const LINK =
  "diff --git a/l b/l\nnew file mode 120000\nindex 0000000..3333333\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+../t\n\\ No newline at end of file\n";
const BIN =
  "diff --git a/x.bin b/x.bin\nindex 4444444..5555555 100644\nGIT binary patch\nliteral 2\nJcmZQz0ssI600RI3\n\nliteral 2\nJcmZQz1ONa700IC2\n\n";
const HIDDEN = "--- a/b.ts\n+++ b/b.ts\n@@ -1 +1 @@\n-b\n+owned\n";

test("git's numstat records and summary lines are split apart, binary counts read as null", () => {
  assert.deepEqual(parseGitReading("1\t1\ta.ts\0-\t-\tx.bin\0 create mode 120000 l\n"), {
    numstat: [
      { path: "a.ts", additions: 1, deletions: 1 },
      { path: "x.bin", additions: null, deletions: null },
    ],
    summary: " create mode 120000 l\n",
  });
});

test("sections that match git's reading pass, with links carried as links", () => {
  const r = resolvePatchIntegrity(TEXT + LINK, {
    numstat: [
      { path: "a.ts", additions: 1, deletions: 1 },
      { path: "l", additions: 1, deletions: 0 },
    ],
    summary: " create mode 120000 l\n",
  });
  assert.deepEqual(r, {
    ok: true,
    hunks: 2,
    files: [
      { path: "a.ts", additions: 1, deletions: 1 },
      { path: "l", additions: 1, deletions: 0, special: { kind: "symlink", mode: "120000", target: "../t" } },
    ],
  });
});

test("a hunk hidden after a binary section, text before the first section, a wrong count or mode, and a rename are refused", () => {
  const reason = (
    patch: string,
    numstat: { path: string; additions: number | null; deletions: number | null }[],
    summary = "",
  ) => {
    const r = resolvePatchIntegrity(patch, { numstat, summary });
    return r.ok ? "ok" : r.reason;
  };
  assert.match(
    reason(BIN + HIDDEN, [
      { path: "x.bin", additions: null, deletions: null },
      { path: "b.ts", additions: 1, deletions: 1 },
    ]),
    /git reads 2 files in the patch, but it has 1 diff --git section/,
  );
  assert.match(
    reason(`junk\n${TEXT}`, [{ path: "a.ts", additions: 1, deletions: 1 }]),
    /text before its first diff --git section/,
  );
  assert.match(reason(TEXT, [{ path: "a.ts", additions: 2, deletions: 1 }]), /shows \+1 -1, git reads \+2 -1/);
  assert.match(reason(TEXT, [{ path: "other.ts", additions: 1, deletions: 1 }]), /names "a.ts", git reads "other.ts"/);
  assert.match(
    reason(LINK, [{ path: "l", additions: 1, deletions: 0 }], " create mode 100644 l\n"),
    /modes the sections declare differ/,
  );
  assert.match(
    reason("diff --git a/a b/b\nsimilarity index 100%\nrename from a\nrename to b\n", [
      { path: "b", additions: 0, deletions: 0 },
    ]),
    /is a rename/,
  );
  assert.equal(reason("", []), "ok");
  assert.match(reason("", [{ path: "a", additions: 1, deletions: 0 }]), /empty, yet git reads files/);
});
