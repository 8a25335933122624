// Which characters a told text may carry: newline and tab pass, every other C0, DEL and every C1 is refused.

import { test } from "node:test";
import assert from "node:assert/strict";
import { assertNoControlCharacters, findControlCharacter } from "../../../src/domain/work/message-text.js";

test("newline, tab and any printable text pass", () => {
  assert.equal(findControlCharacter("line one\n\tindented 🙂 ünï #(x) ;"), undefined);
  assert.doesNotThrow(() => assertNoControlCharacters("a\nb\tc", "message"));
});

test("every other C0 character, DEL and every C1 character is found, at its character position", () => {
  const refused = [
    ...Array.from({ length: 0x20 }, (_, c) => c).filter((c) => c !== 0x09 && c !== 0x0a),
    0x7f,
    ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i),
  ];
  for (const code of refused) {
    const found = findControlCharacter(`🙂ab${String.fromCodePoint(code)}`);
    assert.deepEqual(found, { position: 4, codePoint: `U+${code.toString(16).toUpperCase().padStart(4, "0")}` });
  }
  assert.equal(refused.length, 30 + 1 + 32);
  assert.throws(() => assertNoControlCharacters("x\r\ny", "answer"), {
    code: "control-character",
    message:
      "the answer contains control character U+000D at character 2; only newline and tab are allowed, nothing was sent",
  });
});
