// Benchmark: opening the card of a 2,000-line patch with 50 review comments beside the same card with none —
// the page (engine view + HTML, and over HTTP), the next version's card mapping 50 sent comments, and inside a real
// pi (Enter → card on screen, d → diff viewer on screen). Prints figures, never asserts.
//
// DOCKET_BENCH_RUNS (default 20 for the page, a quarter of it for pi) sets the runs; DOCKET_BENCH_PI=0 skips pi.

import { performance } from "node:perf_hooks";
import { cpus, loadavg } from "node:os";
import { addComment } from "../src/engine/review/comments.js";
import { cardCommentsOf } from "../src/engine/review/card-comments.js";
import { revise } from "../src/engine/review/judge.js";
import { reviewView } from "../src/engine/review/review-view.js";
import { renderCard } from "../src/surfaces/web/pages/card.js";
import { publish, reviewGround, reviewWorker, type ReviewGround } from "../test/support/review-fixture.js";
import { piScreen } from "../test/support/pi-screen.js";
import { waitFor } from "../test/support/wait.js";
import { webServer } from "../test/support/web.js";
import { figure } from "./support/figure.js";

const cleanups: (() => void | Promise<void>)[] = [];
const t = { after: (fn: () => void | Promise<void>) => void cleanups.push(fn) };
const RUNS = Number(process.env.DOCKET_BENCH_RUNS ?? 20);
const PI_RUNS = Math.max(3, Math.round(RUNS / 4));
const FILES = 2;
const LINES = 500; // 2 files × 500 lines changed: 1,000 removed + 1,000 added = a 2,000-line patch

const pct = (xs: number[], q: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const ms = (x: number): string => `${x.toFixed(1).padStart(8)} ms`;

function timed(n: number, fn: () => unknown): number[] {
  fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const file = (f: number, twice: boolean) =>
  `${Array.from(
    { length: LINES },
    (_, i) => `export const v${f}_${i} = ${twice ? i * 2 : i};${twice ? " // doubled" : ""}`,
  ).join("\n")}\n`;
// Each worker changes its own two files, so no overlap warning (and no dry merge) weighs on one card more than another.
const names = (w: number) => Array.from({ length: FILES }, (_, f) => `src/w${w}/mod${f}.ts`);
const before = Object.fromEntries([0, 1, 2].flatMap((w) => names(w).map((n, f) => [n, file(f, false)])));
const after = (w: number) => Object.fromEntries(names(w).map((n, f) => [n, file(f, true)]));

/** 50 drafts spread over both files' new lines, some on ranges. */
function comment50(g: ReviewGround, worker: string, w: number): void {
  for (let i = 0; i < 50; i++) {
    const line = 1 + ((i * 19) % (LINES - 3));
    addComment(g.ctx, {
      target: worker,
      location: `${names(w)[i % FILES]}:${line}${i % 5 === 0 ? `-${line + 2}` : ""}`,
      text: `comment ${i}: please look at this <line>`,
    });
  }
}

async function main(): Promise<void> {
  const g = reviewGround(t, { ...before, "README.md": "hello\n" });
  const bare = reviewWorker(t, g);
  const noted = reviewWorker(t, g);
  const answered = reviewWorker(t, g);
  const refs = {
    bare: publish(g, bare, after(0)).ref,
    noted: publish(g, noted, after(1)).ref,
    answered: publish(g, answered, after(2)).ref,
  };
  comment50(g, noted.worker, 1);
  comment50(g, answered.worker, 2);
  revise(g.ctx, { target: answered.worker });
  // v2 rewrites the first file's first 250 lines again: about half the sent comments are outdated, half still there.
  refs.answered = publish(g, answered, {
    [names(2)[0]!]: file(0, true).replace(/doubled/g, (m, at: number) => (at < 12_000 ? "tripled" : m)),
  }).ref;
  const web = await webServer(t, g);
  const cookie = (await fetch(web.login, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0]!;
  console.log(
    `comments benchmark: a ${(FILES * LINES * 2).toLocaleString("en-US")}-line patch, p50 of ${RUNS}, load ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores`,
  );
  const rows: [string, string, string][] = [
    ["no comments", bare.worker, refs.bare],
    ["50 draft comments", noted.worker, refs.noted],
    ["v2 answering 50 sent", answered.worker, refs.answered],
  ];
  const base: Record<string, number> = {};
  const baseView: Record<string, number> = {};
  const patch = `${(FILES * LINES * 2).toLocaleString("en-US")}-line patch`;
  for (const [name, worker, ref] of rows) {
    const own = timed(RUNS, () => cardCommentsOf(web.ctx, ref));
    const view = timed(RUNS, () => reviewView(web.ctx, ref));
    const page = timed(RUNS, () => renderCard(reviewView(web.ctx, ref), "unified"));
    const http: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await (await fetch(`${web.origin}/card/${worker}`, { headers: { cookie, connection: "close" } })).text();
      http.push(performance.now() - t0);
    }
    base[name] = pct(http, 0.5);
    baseView[name] = pct(page, 0.5);
    console.log(
      `  ${name.padEnd(22)} comments alone ${ms(pct(own, 0.5))} · reviewView ${ms(pct(view, 0.5))} · view + HTML ${ms(pct(page, 0.5))} · GET /card ${ms(pct(http, 0.5))} (p95 ${pct(http, 0.95).toFixed(1)} ms)`,
    );
    if (name === rows[0]![0]) continue;
    const slug = name === rows[1]![0] ? "drafts" : "answering";
    figure({
      id: `comments-view-${slug}`,
      label: `card view + HTML of a ${patch}, ${name}, p50 of ${RUNS}`,
      value: pct(page, 0.5),
      unit: "ms",
      baseline: { label: "the same card with no comments", value: baseView[rows[0]![0]]! },
    });
    figure({
      id: `comments-get-${slug}`,
      label: `GET /card of a ${patch}, ${name}, p50 of ${RUNS}`,
      value: pct(http, 0.5),
      unit: "ms",
      baseline: { label: "the same card with no comments", value: base[rows[0]![0]]! },
    });
  }

  if (process.env.DOCKET_BENCH_PI === "0") return;
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();
  await pi.until("the dock", (s) => s.includes("docket ·"));
  console.log(`  inside pi, p50 of ${PI_RUNS} (the screen is polled every 10 ms: ±10 ms)`);
  let piBase = { card: 0, diff: 0 };
  for (const [name, worker] of rows) {
    const card: number[] = [];
    const diff: number[] = [];
    for (let i = 0; i < PI_RUNS; i++) {
      pi.type(`/docket verdict ${worker}`);
      let t0 = performance.now();
      pi.press("Enter");
      await waitFor(
        "the card",
        () =>
          pi.screen().includes(`docket · verdict · ${worker}`) && pi.screen().includes("d diff") ? true : undefined,
        30_000,
        10,
      );
      card.push(performance.now() - t0);
      t0 = performance.now();
      pi.press("d");
      await waitFor(
        "the viewer",
        () => (pi.screen().includes("docket · diff") && pi.screen().includes("file 1/2") ? true : undefined),
        30_000,
        10,
      );
      diff.push(performance.now() - t0);
      pi.press("Escape");
      await pi.until("the card", (s) => !s.includes("docket · diff"));
      pi.press("Escape");
      await pi.until("closed", (s) => !s.includes("docket · verdict"));
    }
    console.log(`  ${name.padEnd(22)} Enter → card ${ms(pct(card, 0.5))} · d → diff viewer ${ms(pct(diff, 0.5))}`);
    if (name === rows[0]![0]) {
      piBase = { card: pct(card, 0.5), diff: pct(diff, 0.5) };
      continue;
    }
    const slug = name === rows[1]![0] ? "drafts" : "answering";
    const none = "the same card with no comments";
    figure({
      id: `comments-pi-card-${slug}`,
      label: `inside pi: Enter → card on screen, ${patch}, ${name}, p50 of ${PI_RUNS}`,
      value: pct(card, 0.5),
      unit: "ms",
      baseline: { label: none, value: piBase.card },
    });
    figure({
      id: `comments-pi-diff-${slug}`,
      label: `inside pi: d → diff viewer on screen, ${patch}, ${name}, p50 of ${PI_RUNS}`,
      value: pct(diff, 0.5),
      unit: "ms",
      baseline: { label: none, value: piBase.diff },
    });
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const fn of cleanups.reverse()) await fn();
  });
