// Where a review comment may point, derived from the frozen patch alone: locations parse, lines the patch does not
// show on that side are refused with the lines it does show, and a comment is found again (or not) in the next patch.

import { test } from "node:test";
import assert from "node:assert/strict";
import { parseDiffFiles } from "../../../src/domain/deliverables/diff-files.js";
import { DocketError } from "../../../src/domain/errors.js";
import { parseCommentLocation, quotedLines, resolveAnchor } from "../../../src/domain/review/comment-anchor.js";
import { mapAnchor } from "../../../src/domain/review/comment-map.js";
import { formatRevisionMessage } from "../../../src/domain/review/revision-message.js";

const PATCH = [
  "diff --git a/src/a.ts b/src/a.ts",
  "index 1111111..2222222 100644",
  "--- a/src/a.ts",
  "+++ b/src/a.ts",
  "@@ -4,4 +4,5 @@ fn",
  " four",
  "-five",
  "+FIVE",
  "+FIVE-B",
  " six",
  " seven",
  "diff --git a/gone.txt b/gone.txt",
  "deleted file mode 100644",
  "index 3333333..0000000",
  "--- a/gone.txt",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-bye",
  "",
].join("\n");

const files = parseDiffFiles(PATCH);
const at = (file: string, start: number | null, end = start, side: "old" | "new" = "new") =>
  resolveAnchor({ ref: "worker-deliverable:w1:1", worker: "w1", files, location: { file, start, end }, side });

test("a location is a file with one line, a range, or nothing (the whole file); a backwards range is a usage error", () => {
  assert.deepEqual(parseCommentLocation("src/a.ts:5"), { file: "src/a.ts", start: 5, end: 5 });
  assert.deepEqual(parseCommentLocation("src/a.ts:5-7"), { file: "src/a.ts", start: 5, end: 7 });
  assert.deepEqual(parseCommentLocation("dir:with/colon.ts"), { file: "dir:with/colon.ts", start: null, end: null });
  assert.throws(
    () => parseCommentLocation("src/a.ts:7-5"),
    (e: unknown) => e instanceof DocketError && e.category === "usage",
  );
  assert.throws(
    () => parseCommentLocation(":3"),
    (e: unknown) => e instanceof DocketError && e.code === "bad-comment-location",
  );
});

test("lines shown on a side are accepted and quoted as the patch shows them; others are refused naming what is shown", () => {
  assert.deepEqual(quotedLines(files, at("src/a.ts", 5, 6)), ["+FIVE", "+FIVE-B"]);
  assert.deepEqual(quotedLines(files, at("src/a.ts", 5, 5, "old")), ["-five"]);
  assert.deepEqual(quotedLines(files, at("src/a.ts", 4, 4, "old")), [" four"]);
  assert.deepEqual(at("gone.txt", null), { file: "gone.txt", side: "new", start: null, end: null });
  const refused = (f: () => unknown, code: string, message: RegExp) =>
    assert.throws(f, (e: unknown) => e instanceof DocketError && e.code === code && message.test(e.message));
  refused(
    () => at("src/a.ts", 9),
    "comment-outside-patch",
    /^line 9 \(new side\) of src\/a\.ts is not in worker-deliverable:w1:1's frozen patch, which shows new-side lines 4–8; nothing changed$/,
  );
  refused(() => at("src/a.ts", 8, 8, "old"), "comment-outside-patch", /shows old-side lines 4–7;/);
  refused(() => at("gone.txt", 1), "comment-outside-patch", /which shows no new-side lines of it/);
  refused(
    () => at("src/b.ts", 1),
    "comment-file-not-in-patch",
    /^"src\/b\.ts" is not a file of worker-deliverable:w1:1's frozen patch/,
  );
});

test("the next patch keeps a comment where the same lines are shown (moved or not), and marks it outdated otherwise", () => {
  const moved = parseDiffFiles(PATCH.replace("@@ -4,4 +4,5 @@ fn", "@@ -4,4 +14,5 @@ fn"));
  assert.deepEqual(mapAnchor(files, moved, at("src/a.ts", 5, 6)), {
    status: "current",
    anchor: { file: "src/a.ts", side: "new", start: 15, end: 16 },
  });
  const rewritten = parseDiffFiles(PATCH.replace("+FIVE-B", "+FIVE-C"));
  assert.deepEqual(mapAnchor(files, rewritten, at("src/a.ts", 5, 6)), {
    status: "outdated",
    reason: "its lines changed",
  });
  assert.deepEqual(mapAnchor(files, rewritten, at("src/a.ts", 5, 5)).status, "current");
  const without = parseDiffFiles(PATCH.slice(PATCH.indexOf("diff --git a/gone.txt")));
  assert.deepEqual(mapAnchor(files, without, at("src/a.ts", null)), {
    status: "outdated",
    reason: "src/a.ts is no longer in the patch",
  });
  assert.deepEqual(mapAnchor(files, without, at("gone.txt", null)).status, "current");
});

test("the revision message quotes the worker's lines with control bytes made visible, never passed on", () => {
  const body = formatRevisionMessage({
    ref: "worker-deliverable:w1:1",
    version: 1,
    note: undefined,
    comments: [
      {
        id: "cm1",
        anchor: { file: "src/a\u001b.ts", side: "new", start: 5, end: 5 },
        text: "why?",
        quoted: ["+x\u0003y\tz"],
      },
    ],
  });
  assert.equal(
    body.split("\n").slice(0, 6).join("\n"),
    "Request revision for worker-deliverable:w1:1 (version 1):\n\n1 comment on the frozen patch of version 1:\n\n[cm1] src/a\uFFFD.ts:5 (new)\n  > +x\uFFFDy\tz",
  );
  assert.doesNotMatch(body, /[\u0000-\u0008\u000b-\u001f]/);
});
