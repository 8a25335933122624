// Writes docs/performance.md from bench output: runs the named benches (`--all`: every one; `--render`: none), keeps
// their figure lines in docs/performance-figures.json beside the saved figures of benches not run, renders the page.
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { mergeFigures, parseFigureLines, renderPage } from "../dist/bench/support/perf-page.js";

const BENCHES = "dist/bench";
const SAVED = "docs/performance-figures.json";
const PAGE = "docs/performance.md";

const args = process.argv.slice(2);
const render = args.includes("--render");
const all = args.includes("--all");
const names = args.filter((a) => !a.startsWith("--"));
if (!render && !all && names.length === 0) {
  console.error(
    "usage: npm run bench:page -- <bench> [<bench> …] | --all | --render   (benches: dist/bench/*.bench.js, by substring)",
  );
  process.exit(2);
}
const files = render
  ? []
  : readdirSync(BENCHES)
      .filter((n) => n.endsWith(".bench.js") && (all || names.some((f) => n.includes(f))))
      .sort();
if (!render && files.length === 0) {
  console.error(`no bench matches ${names.join(", ")}`);
  process.exit(2);
}

/** Runs one bench, its output shown as it comes; resolves to what it printed and how it exited. */
function runBench(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(BENCHES, file)], { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      process.stdout.write(chunk);
    });
    child.on("close", (code) => resolve({ text, code }));
  });
}

const saved = existsSync(SAVED) ? JSON.parse(readFileSync(SAVED, "utf8")).figures : [];
let fresh = [];
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const { text, code } = await runBench(file);
  // A bench that failed keeps its saved figures: a page never mixes a partial run into a row set.
  if (code !== 0) {
    failed++;
    console.error(`${file} exited ${code}; its saved figures are kept`);
    continue;
  }
  const figures = parseFigureLines(text);
  if (figures.length === 0)
    console.error(`${file} printed no figure lines (bench/support/figure.ts); the page has no row for it`);
  fresh = fresh.concat(figures);
}
const figures = mergeFigures(saved, fresh);
for (const [path, text] of [
  [SAVED, `${JSON.stringify({ figures }, null, 2)}\n`],
  [PAGE, renderPage(figures)],
]) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}
console.log(`\nwrote ${PAGE} (${figures.length} figures; ${fresh.length} from this run)`);
process.exit(failed ? 1 : 0);
