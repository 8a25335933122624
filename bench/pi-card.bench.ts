// Benchmark: how long the verdict card and the diff viewer take to appear inside a real interactive pi (tmux, scripted
// model), from the Enter that submits `/docket verdict w1` to the card on screen. Prints figures, never asserts.
//
// DOCKET_BENCH_RUNS (default 10) sets the runs; the screen is polled every 10 ms, so figures are ±10 ms.

import { performance } from "node:perf_hooks";
import { loadavg, cpus } from "node:os";
import { appWith, publish, reviewGround, reviewWorker } from "../test/support/review-fixture.js";
import { piScreen } from "../test/support/pi-screen.js";
import { waitFor } from "../test/support/wait.js";
import { figure } from "./support/figure.js";

const RUNS = Number(process.env.DOCKET_BENCH_RUNS ?? 10);
const cleanups: (() => void | Promise<void>)[] = [];
const t = { after: (fn: () => void | Promise<void>) => void cleanups.push(fn) };

async function timed(pi: ReturnType<typeof piScreen>, act: () => void, shown: (s: string) => boolean): Promise<number> {
  const start = performance.now();
  act();
  await waitFor("the view on screen", () => (shown(pi.screen()) ? true : undefined), 30_000, 10);
  return performance.now() - start;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function main(): Promise<void> {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const big: Record<string, string> = {
    "src/app.txt": appWith(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [i + 1, `changed ${i + 1}`]))),
  };
  for (let i = 0; i < 30; i++)
    big[`src/gen/file-${i}.txt`] = `${Array.from({ length: 60 }, (_, j) => `line ${j}`).join("\n")}\n`;
  publish(g, w, big);
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();
  await pi.until("the dock", (s) => s.includes(`✓ ${w.worker}·`));
  console.log(
    `pi card benchmark: ${RUNS} runs, a version of 31 files (+1840 −40), load ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores`,
  );
  const card: number[] = [];
  const diff: number[] = [];
  const nextFile: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    pi.type(`/docket verdict ${w.worker}`);
    card.push(
      await timed(
        pi,
        () => pi.press("Enter"),
        (s) => s.includes(`docket · verdict · ${w.worker} v1`) && s.includes("a approve"),
      ),
    );
    diff.push(
      await timed(
        pi,
        () => pi.press("d"),
        (s) => s.includes("docket · diff") && s.includes("file 1/31"),
      ),
    );
    nextFile.push(
      await timed(
        pi,
        () => pi.press("]"),
        (s) => s.includes("file 2/31"),
      ),
    );
    pi.press("Escape");
    await pi.until("the card", (s) => s.includes("a approve") && !s.includes("docket · diff"));
    pi.press("Escape");
    await pi.until("closed", (s) => !s.includes("docket · verdict"));
  }
  for (const [id, name, xs] of [
    ["pi-card", "Enter → card on screen", card],
    ["pi-diff", "d → diff viewer on screen", diff],
    ["pi-next-file", "] → next file on screen", nextFile],
  ] as const) {
    console.log(
      `  ${name.padEnd(28)} p50 ${pct(xs, 50).toFixed(0)} ms · p90 ${pct(xs, 90).toFixed(0)} ms · max ${Math.max(...xs).toFixed(0)} ms`,
    );
    figure({
      id,
      label: `inside pi: ${name}, a version of 31 files (+1840 −40), p50 of ${RUNS} (screen polled every 10 ms)`,
      value: pct(xs, 50),
      unit: "ms",
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
