// Broadcast scoring on plain data: what makes a worker affected (an edited or planned path the text names, an address
// from a note), what only makes it a maybe (a read, a common file name, an identifier, task words), and the order.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  broadcastSubject,
  contentWords,
  identifiersInText,
  scoreBroadcast,
  type BroadcastCandidate,
} from "../../../src/domain/talk/broadcast-scoring.js";
import { matchPath, pathsInText, toProjectPath } from "../../../src/domain/talk/project-paths.js";

const worker = (n: number, extra: Partial<BroadcastCandidate> = {}): BroadcastCandidate => ({
  worker: `w${n}`,
  kind: "default",
  task: `task ${n}`,
  edited: [],
  read: [],
  planned: [],
  ...extra,
});
const bands = (text: string, candidates: BroadcastCandidate[], options = {}) =>
  scoreBroadcast(broadcastSubject(text, options), candidates).map((r) => [r.worker, r.band, r.reason]);

test("a worker that edited a path the text names is affected, with that path as the reason; a suffix at a directory boundary counts", () => {
  assert.deepEqual(
    bands("I changed src/limits/rate.ts: the window is now per tenant", [
      worker(1, { edited: ["src/limits/rate.ts"] }),
      worker(2, { edited: ["lib/limits/rate.ts"] }),
      worker(3, { edited: ["src/other.ts"] }),
    ]),
    [
      ["w1", "affected", "edits src/limits/rate.ts"],
      ["w2", "unrelated", "no overlap found"],
      ["w3", "unrelated", "no overlap found"],
    ],
  );
  assert.deepEqual(bands("see limits/rate.ts", [worker(1, { edited: ["src/limits/rate.ts"] })]), [
    ["w1", "affected", "edits src/limits/rate.ts"],
  ]);
});

test("an approved plan's file counts like an edit; a file the worker only read is a maybe", () => {
  assert.deepEqual(
    bands("api/routes.ts moved to v2", [
      worker(1, { read: ["api/routes.ts"] }),
      worker(2, { planned: ["api/routes.ts"] }),
    ]),
    [
      ["w2", "affected", "plan names api/routes.ts"],
      ["w1", "maybe", "read api/routes.ts"],
    ],
  );
});

test("a bare distinctive file name matches by name; a common one (index.ts) is only a maybe", () => {
  assert.deepEqual(bands("rate-limit.ts now exports a class", [worker(1, { edited: ["src/mw/rate-limit.ts"] })]), [
    ["w1", "affected", "edits src/mw/rate-limit.ts"],
  ]);
  assert.deepEqual(bands("index.ts re-exports everything now", [worker(1, { edited: ["src/a/index.ts"] })]), [
    ["w1", "maybe", "edits src/a/index.ts (a common file name)"],
  ]);
});

test("identifiers and shared task words make a maybe; nothing else is unrelated", () => {
  assert.deepEqual(bands("`tenantId` is now required", [worker(1, { task: "add tenantId to the invoices" })]), [
    ["w1", "maybe", "mentions tenantId"],
  ]);
  assert.deepEqual(
    bands("the invoice totals use cents now", [
      worker(1, { task: "fix invoice totals rounding" }),
      worker(2, { task: "write docs" }),
    ]),
    [
      ["w1", "maybe", "task overlaps: invoice, totals"],
      ["w2", "unrelated", "no overlap found"],
    ],
  );
});

test("a note's suggested recipients are proposed as affected, and its author never receives its own note", () => {
  assert.deepEqual(bands("schema changed", [worker(1), worker(2), worker(3)], { addressed: ["w3"], from: "w1" }), [
    ["w3", "affected", "addressed by w1"],
    ["w2", "unrelated", "no overlap found"],
  ]);
});

test("rows come affected first, then maybe, then unrelated, each by worker number", () => {
  const rows = scoreBroadcast(broadcastSubject("a.ts and `fooBar`"), [
    worker(10),
    worker(3, { task: "fooBar cleanup" }),
    worker(2, { edited: ["a.ts"] }),
    worker(1),
    worker(4, { edited: ["a.ts"] }),
  ]);
  assert.deepEqual(
    rows.map((r) => `${r.worker}:${r.band}`),
    ["w2:affected", "w4:affected", "w3:maybe", "w1:unrelated", "w10:unrelated"],
  );
});

test("paths in text: anything with a slash or a code extension, never a URL; absolute paths inside the project become relative", () => {
  assert.deepEqual(
    pathsInText("see src/a.ts, `lib/b/` and c.json (not https://x.io/a.ts) or /repo/d/e.go", "/repo").sort(),
    ["c.json", "d/e.go", "lib/b", "src/a.ts"],
  );
  assert.deepEqual(pathsInText("nothing here, just words."), []);
});

test("project coordinates: a worktree prefix or the project root is removed; anything outside both is dropped", () => {
  const where = { workspace: "/home/u/.docket/fleet/w2/workspace", projectRoot: "/home/u/repo" };
  assert.equal(toProjectPath("/home/u/.docket/fleet/w2/workspace/src/a.ts", where), "src/a.ts");
  assert.equal(toProjectPath("/home/u/repo/src/./b.ts", where), "src/b.ts");
  assert.equal(toProjectPath("src/../lib/c.ts", where), "lib/c.ts");
  assert.equal(toProjectPath("/tmp/scratch.txt", where), undefined);
  assert.equal(toProjectPath("../escape.ts", where), undefined);
});

test("path matching is exact, a suffix at a boundary, or a file name; never a partial segment", () => {
  assert.equal(matchPath("src/a.ts", "src/a.ts"), "exact");
  assert.equal(matchPath("a/rate.ts", "src/a/rate.ts"), "suffix");
  assert.equal(matchPath("rate.ts", "src/a/rate.ts"), "name");
  assert.equal(matchPath("ate.ts", "src/a/rate.ts"), undefined);
  assert.equal(matchPath("b/rate.ts", "src/a/rate.ts"), undefined);
});

test("content words drop stopwords, short words and numbers; identifiers are backticked or camel/snake case", () => {
  assert.deepEqual(contentWords("The cache is now invalidated on every write to 2 tables"), [
    "cache",
    "invalidated",
    "write",
    "tables",
  ]);
  assert.deepEqual(identifiersInText("use `max_retries` and retryDelay, not `a` or plain words").sort(), [
    "max_retries",
    "retryDelay",
  ]);
});
