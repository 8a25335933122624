// Parsing frozen git patches into per-file old-file (pre-image) ranges, on real `git diff` output typed in as fixtures.
// Renames, copies, binary files, created and deleted files and C-quoted paths must all come out right.

import { test } from "node:test";
import assert from "node:assert/strict";
import { parsePatchRanges } from "../../../src/domain/deliverables/patch-ranges.js";

// `git diff --cached --binary -M` of a small repo (context 3), exactly as git printed it.
const MIXED = `diff --git a/a.txt b/a.txt
index ac9837c..8ab2d38 100644
--- a/a.txt
+++ b/a.txt
@@ -2,7 +2,7 @@ line 1
 line 2
 line 3
 line 4
-line 5
+LINE 5
 line 6
 line 7
 line 8
@@ -10,6 +10,7 @@ line 9
 line 10
 line 11
 line 12
+inserted
 line 13
 line 14
 line 15
@@ -17,7 +18,7 @@ line 16
 line 17
 line 18
 line 19
-line 20
+LINE 20
 line 21
 line 22
 line 23
diff --git a/del.txt b/del.txt
deleted file mode 100644
index 286c5f5..0000000
--- a/del.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
diff --git a/empty.txt b/empty.txt
new file mode 100644
index 0000000..e69de29
diff --git a/img.bin b/img.bin
index 87ae6b695deceaf160611414f7dcd5c7366b2e79..22f6b3b038c9c8f81e86f801c481bbf851e477fe 100644
GIT binary patch
literal 8
PcmYew%wtF_sx$%s42c4\`

literal 7
OcmYew%wtF_sssQD(E^45

diff --git a/new.txt b/new.txt
new file mode 100644
index 0000000..07f33c4
--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+new
+file
diff --git a/nonl.txt b/nonl.txt
index 1a9d148..7adf2e5 100644
--- a/nonl.txt
+++ b/nonl.txt
@@ -1 +1 @@
-nonl
\\ No newline at end of file
+nonl2
\\ No newline at end of file
diff --git a/ren.txt b/renamed.txt
similarity index 94%
rename from ren.txt
rename to renamed.txt
index 8011166..eff5ea6 100644
--- a/ren.txt
+++ b/renamed.txt
@@ -7,7 +7,7 @@ r 6
 r 7
 r 8
 r 9
-r 10
+R 10
 r 11
 r 12
 r 13
`;

// Quoted non-ASCII path (core.quotePath), a plain path with a space (git adds a tab), and a pure rename.
const QUOTED = `diff --git "a/caf\\303\\251 file.txt" "b/caf\\303\\251 file.txt"
index bca70f3..d169a2f 100644
--- "a/caf\\303\\251 file.txt"\t
+++ "b/caf\\303\\251 file.txt"\t
@@ -1 +1 @@
-q
+q2
diff --git a/moved.txt b/moved2.txt
similarity index 100%
rename from moved.txt
rename to moved2.txt
diff --git a/with space.txt b/with space.txt
index 1a9cc2b..d54f251 100644
--- a/with space.txt\t
+++ b/with space.txt\t
@@ -1 +1 @@
-p
+p2
`;

test("each file section yields its path and the old-file lines its changes touch, context excluded", () => {
  assert.deepEqual(parsePatchRanges(MIXED), [
    {
      path: "a.txt",
      created: false,
      deleted: false,
      ranges: [
        { start: 5, end: 5 },
        { start: 13, end: 12 },
        { start: 20, end: 20 },
      ],
    },
    { path: "del.txt", created: false, deleted: true, ranges: [{ start: 1, end: 1 }] },
    { path: "empty.txt", created: true, deleted: false, ranges: [] },
    { path: "img.bin", created: false, deleted: false, ranges: [], binary: true },
    { path: "new.txt", created: true, deleted: false, ranges: [] },
    { path: "nonl.txt", created: false, deleted: false, ranges: [{ start: 1, end: 1 }] },
    { path: "renamed.txt", created: false, deleted: false, ranges: [{ start: 10, end: 10 }], oldPath: "ren.txt" },
  ]);
});

test("quoted non-ASCII paths, paths with spaces and pure renames are read exactly", () => {
  assert.deepEqual(parsePatchRanges(QUOTED), [
    { path: "café file.txt", created: false, deleted: false, ranges: [{ start: 1, end: 1 }] },
    { path: "moved2.txt", created: false, deleted: false, ranges: [], oldPath: "moved.txt" },
    { path: "with space.txt", created: false, deleted: false, ranges: [{ start: 1, end: 1 }] },
  ]);
});

test("a text binary notice marks the file binary with no ranges", () => {
  const patch =
    "diff --git a/img.bin b/img.bin\nindex 87ae6b6..22f6b3b 100644\nBinary files a/img.bin and b/img.bin differ\n";
  assert.deepEqual(parsePatchRanges(patch), [
    { path: "img.bin", created: false, deleted: false, ranges: [], binary: true },
  ]);
  const created =
    "diff --git a/logo.png b/logo.png\nnew file mode 100644\nindex 0000000..22f6b3b\nBinary files /dev/null and b/logo.png differ\n";
  assert.deepEqual(parsePatchRanges(created), [
    { path: "logo.png", created: true, deleted: false, ranges: [], binary: true },
  ]);
});

test("a run of removed and added lines is one range, and a pure insertion is an empty range after its line", () => {
  const patch = `diff --git a/f.ts b/f.ts
--- a/f.ts
+++ b/f.ts
@@ -3,6 +3,6 @@ ctx
 three
-four
-five
+FOUR
+FIVE
+extra
 six
-seven
@@ -40,0 +41,2 @@ ctx
+a
+b
`;
  assert.deepEqual(parsePatchRanges(patch)[0]?.ranges, [
    { start: 4, end: 5 },
    { start: 7, end: 7 },
    { start: 41, end: 40 },
  ]);
});

test("CRLF patches, plain unified diffs and stray text before the first section parse", () => {
  const patch =
    "From abc Mon Sep 17 00:00:00 2001\r\nSubject: x\r\n\r\n---\r\ndiff --git a/x.ts b/x.ts\r\n--- a/x.ts\r\n+++ b/x.ts\r\n@@ -2 +2 @@\r\n-a\r\n+b\r\n";
  assert.deepEqual(parsePatchRanges(patch), [
    { path: "x.ts", created: false, deleted: false, ranges: [{ start: 2, end: 2 }] },
  ]);
  const plain = "--- a/y.ts\n+++ b/y.ts\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n";
  assert.deepEqual(parsePatchRanges(plain), [
    { path: "y.ts", created: false, deleted: false, ranges: [{ start: 2, end: 2 }] },
  ]);
});

test("a hunk body line that looks like a header is content, counted by the hunk header", () => {
  const patch =
    "diff --git a/m.md b/m.md\n--- a/m.md\n+++ b/m.md\n@@ -1,2 +1,2 @@\n---- a/fake\n+--- a/fake\n diff --git a/no b/no\n";
  assert.deepEqual(parsePatchRanges(patch), [
    { path: "m.md", created: false, deleted: false, ranges: [{ start: 1, end: 1 }] },
  ]);
});

test("an empty or nonsense patch yields no files and never throws", () => {
  assert.deepEqual(parsePatchRanges(""), []);
  assert.deepEqual(parsePatchRanges("hello\nworld\n@@ -1 +1 @@\n"), []);
  assert.doesNotThrow(() => parsePatchRanges('diff --git "a/unterminated\n@@ -x +y @@\n--- \n+++ \n'));
});
