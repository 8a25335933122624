// The performance page is made from bench output: figure lines are parsed out of a bench's mixed output (a malformed
// one is an error, not a silent row), a fresh run replaces only its own bench's figures, and rows carry the anchor.

import { test } from "node:test";
import assert from "node:assert/strict";
import { FIGURE_PREFIX } from "../../bench/support/figure.js";
import { mergeFigures, parseFigureLines, renderPage, type RunFigure } from "../../bench/support/perf-page.js";

const line = (f: Partial<RunFigure>): string =>
  `${FIGURE_PREFIX}${JSON.stringify({ at: "2026-12-02T03:00:00.000Z", cores: 2, load: 3.5, ...f })}`;

test("figure lines are read out of a bench's human output, in order; a broken one throws", () => {
  const output = [
    "decisions: 10000 appended",
    line({
      bench: "decisions",
      id: "append-decision",
      label: "append one decision",
      value: 0.16,
      unit: "ms",
      baseline: { label: "appendFileSync", value: 0.008 },
    }),
    "  rss 80 MB",
    line({ bench: "decisions", id: "is-approved", label: "is it approved?", value: 0.07, unit: "ms" }),
  ].join("\n");
  assert.deepEqual(
    parseFigureLines(output).map((f) => [f.id, f.value]),
    [
      ["append-decision", 0.16],
      ["is-approved", 0.07],
    ],
  );
  assert.throws(() => parseFigureLines(`${FIGURE_PREFIX}{"bench": "x"`), /not a figure line/);
  assert.throws(() => parseFigureLines(line({ bench: "x", id: "y", label: "z", unit: "ms" })), /lacks/);
});

test("a fresh run replaces its bench's saved figures and keeps the others'", () => {
  const saved = parseFigureLines(
    [
      line({ bench: "store", id: "store-list", label: "list", value: 80, unit: "ms" }),
      line({ bench: "decisions", id: "append-decision", label: "append", value: 0.2, unit: "ms" }),
      line({ bench: "decisions", id: "gone", label: "an old row", value: 1, unit: "ms" }),
    ].join("\n"),
  );
  const fresh = parseFigureLines(
    line({ bench: "decisions", id: "append-decision", label: "append", value: 0.15, unit: "ms" }),
  );
  assert.deepEqual(
    mergeFigures(saved, fresh).map((f) => `${f.bench}:${f.id}=${f.value}`),
    ["decisions:append-decision=0.15", "store:store-list=80"],
  );
});

test("the page shows each figure beside its same-run baseline, the ratio and the anchor tool's figure", () => {
  const page = renderPage(
    parseFigureLines(
      [
        line({
          bench: "decisions",
          id: "append-decision",
          label: "append one decision",
          value: 0.16,
          unit: "ms",
          baseline: { label: "appendFileSync", value: 0.008 },
        }),
        line({
          bench: "plan",
          id: "plan-parse",
          label: "parse a plan",
          value: 25_700,
          unit: "/s",
          baseline: { label: "split into lines", value: 236_000 },
        }),
        line({ bench: "cli", id: "process:docket --help", label: "`docket --help` | wall", value: 60.2, unit: "ms" }),
      ].join("\n"),
    ),
  );
  assert.match(page, /^## decisions\.bench \(2026-12-02, 2 cores at load 3\.5\)$/m);
  assert.match(page, /^\| append one decision \| 0\.160 ms \(×20\.00\) \| appendFileSync 0\.008 ms \| 0\.195 ms \|$/m);
  assert.match(page, /^\| parse a plan \| 25\.7 k\/s \(×9\.18\) \| split into lines 236\.0 k\/s \| 28\.7 k\/s \|$/m);
  assert.match(
    page,
    /^\| `docket --help` \\\| wall \| 60\.2 ms \| — \| — \|$/m,
    "a pipe in a label does not split the row",
  );
  assert.match(renderPage([]), /No figures saved yet\./);
});
