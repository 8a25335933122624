// The one output filter: every code point that can drive a terminal or hide text is drawn as a visible mark, newline and
// tab pass, ordinary text (accents, emoji, CJK) is untouched, and visibleJson keeps a document's value exactly.

import { test } from "node:test";
import assert from "node:assert/strict";
import { visibleJson, visibleText } from "../../../src/domain/text/visible-text.js";

test("controls become control pictures, C1, bidi and zero-width marks become ⟨U+XXXX⟩; newline and tab pass", () => {
  assert.equal(visibleText("a\x1b]52;c;eA==\x07b"), "a␛]52;c;eA==␇b");
  assert.equal(visibleText("line\r\x1b[2Kgone"), "line␍␛[2Kgone");
  assert.equal(visibleText("\u009b2J\u009d0;t\u009c"), "⟨U+009B⟩2J⟨U+009D⟩0;t⟨U+009C⟩");
  assert.equal(
    visibleText("\u202etxt.exe\u202c \u2066x\u2069 a\u200bb \ufeff \u2028 \u{e0041}"),
    "⟨U+202E⟩txt.exe⟨U+202C⟩ ⟨U+2066⟩x⟨U+2069⟩ a⟨U+200B⟩b ⟨U+FEFF⟩ ⟨U+2028⟩ ⟨U+E0041⟩",
  );
  assert.equal(visibleText("\x00\x7f"), "␀␡");
  assert.equal(visibleText("lone \ud800 surrogate"), "lone ⟨U+D800⟩ surrogate");
  const ordinary = "tab\there\nnext line · café ✓ 日本語 🚀 — “quotes”";
  assert.equal(visibleText(ordinary), ordinary);
  assert.equal(visibleText("x\x1by"), "x␛y");
  assert.equal(visibleText("x\x1by"), "x␛y", "the filter holds no state between calls");
});

test("visibleJson writes hidden code points as JSON escapes: same value, no raw byte on the wire", () => {
  const value = { s: "a\u009bb\u202ec\u{e0041}d\x1b", n: 1 };
  const wire = visibleJson(JSON.stringify(value));
  assert.doesNotMatch(wire, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u{e0000}-\u{e007f}]/u);
  assert.deepEqual(JSON.parse(wire), value);
});
