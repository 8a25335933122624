// The journal view rendered from entries: newest first, generated (editing changes nothing), promotions list what
// landed and warn that a worktree still holds the old bytes, the credit names every worker, the view is bounded.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  JOURNAL_VIEW_ENTRIES,
  formatCredit,
  renderJournal,
  type JournalEntry,
} from "../../../src/domain/talk/journal.js";

const entry = (n: number, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  id: `j${n}`,
  at: `2026-01-01T00:00:${String(n % 60).padStart(2, "0")}.000Z`,
  kind: "broadcast",
  from: "you",
  text: `post ${n}`,
  paths: [],
  ref: null,
  workers: [],
  ...extra,
});

test("newest first, with the generated-file header; a promotion lists its files and the old-bytes warning", () => {
  const text = renderJournal("/repo", [
    entry(1),
    entry(2, {
      kind: "promoted",
      from: "w2 + w3",
      text: "Combined changes…",
      paths: ["src/a.ts", "src/b.ts"],
      ref: "combined:w2+w3:1",
      workers: ["w2", "w3"],
    }),
  ]);
  assert.match(
    text,
    /^# Project journal — \/repo\n\nThis file is generated from Docket's ledger each time an entry is added\. Editing it changes nothing\./,
  );
  assert.ok(text.indexOf("promoted · from w2 + w3") < text.indexOf("post 1"), "newest first");
  assert.match(text, /Landed in the project \(2 files\):\n- src\/a\.ts\n- src\/b\.ts/);
  assert.match(text, /it still holds the old bytes/);
  assert.match(text, /A promotion that credits you \(w2 \+ w3\) is your own work landing/);
});

test("the view keeps the newest entries and says how many older ones the ledger holds", () => {
  const text = renderJournal(
    "/repo",
    Array.from({ length: JOURNAL_VIEW_ENTRIES + 3 }, (_, i) => entry(i + 1)),
  );
  assert.ok(!text.includes("post 3\n"));
  assert.ok(text.includes(`post ${JOURNAL_VIEW_ENTRIES + 3}`));
  assert.match(text, /\(3 older entries are kept in the ledger: `docket journal`\)/);
  assert.equal(formatCredit([]), "you");
});
