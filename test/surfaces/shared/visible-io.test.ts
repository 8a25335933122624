// The Io every verb gets draws worker text visibly on out, err and every question, keeps --json's value exact, adds
// Docket's colours only after the filter, and hands a chosen option back to the verb byte for byte.

import { test } from "node:test";
import assert from "node:assert/strict";
import { visibleIo, type Io } from "../../../src/surfaces/shared/io.js";

function recordingIo(options: { json?: boolean; color?: boolean; pick?: number } = {}): Io & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    json: options.json ?? false,
    interactive: true,
    color: options.color ?? false,
    out: (text) => void seen.push(`out:${text}`),
    err: (text) => void seen.push(`err:${text}`),
    confirm: async (q) => {
      seen.push(`confirm:${q}`);
      return true;
    },
    input: async (p) => {
      seen.push(`input:${p}`);
      return "";
    },
    select: async (title, opts) => {
      seen.push(`select:${title}|${opts.join("|")}`);
      return opts[options.pick ?? 0];
    },
  };
}

test("out, err, confirm, input and select titles reach the terminal with every escape drawn visibly", async () => {
  const raw = recordingIo({ pick: 1 });
  const io = visibleIo(raw);
  io.out("a\x1b]2;t\x07b");
  io.err("c\u202ed");
  await io.confirm("ok \x1b[2K?");
  await io.input("say \x9b");
  const options = ["one\x1b]52;c;eA==\x07", "two\x1b]52;c;eA==\x07", "one\x1b]52;c;eA==\x07"];
  const picked = await io.select("pick \x07", options);
  assert.equal(picked, options[1], "the verb gets its own option back, escapes and all");
  assert.deepEqual(raw.seen, [
    "out:a␛]2;t␇b",
    "err:c⟨U+202E⟩d",
    "confirm:ok ␛[2K?",
    "input:say ⟨U+009B⟩",
    "select:pick ␇|one␛]52;c;eA==␇|two␛]52;c;eA==␇|one␛]52;c;eA==␇ (3)",
  ]);
});

test("Docket's colours are added after the filter; --json documents keep their value with hidden code points escaped", () => {
  const colored = recordingIo({ color: true });
  visibleIo(colored).out("+x\x1b[2K\n-y", (l) => `<${l}>`);
  assert.deepEqual(colored.seen, ["out:<+x␛[2K>\n<-y>"]);
  const json = recordingIo({ json: true });
  const value = { text: "a\u009bb\u202ec" };
  visibleIo(json).out(JSON.stringify(value));
  assert.doesNotMatch(json.seen[0]!, /[\u009b\u202e]/);
  assert.deepEqual(JSON.parse(json.seen[0]!.slice(4)), value);
});
