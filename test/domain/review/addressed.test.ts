// A worker's answers to review comments in docket_done: comment ids and non-empty notes, trimmed; anything else is
// one validation error that names the entry, so the model can call again.

import { test } from "node:test";
import assert from "node:assert/strict";
import { DocketError } from "../../../src/domain/errors.js";
import { checkAddressed } from "../../../src/domain/review/addressed.js";

test("answers are trimmed; none given is an empty list; a bad id or an empty note is refused naming the entry", () => {
  assert.deepEqual(checkAddressed(undefined), []);
  assert.deepEqual(checkAddressed([{ comment: " cm3 ", note: " renamed it\n" }]), [
    { comment: "cm3", note: "renamed it" },
  ]);
  const refused = (value: unknown, message: RegExp) =>
    assert.throws(
      () => checkAddressed(value, "docket_done published nothing — "),
      (e: unknown) => e instanceof DocketError && e.code === "addressed-invalid" && message.test(e.message),
    );
  refused(
    [{ comment: "dc3", note: "x" }],
    /^docket_done published nothing — addressed\[0\]\.comment must be a comment id such as cm3/,
  );
  refused(
    [
      { comment: "cm1", note: "ok" },
      { comment: "cm2", note: "  " },
    ],
    /addressed\[1\]\.note must say what you did about cm2/,
  );
  refused({ comment: "cm1" }, /addressed must be a list/);
  refused(
    [{ comment: "cm1", note: "done \u001b[2J" }],
    /addressed\[0\]\.note contains control character U\+001B at character 6/,
  );
});
