// `docket demo`: runs the whole loop on a scratch repository with real pi workers and a scripted model.
// Narration goes to stdout (stderr with --json, where stdout holds only the result object).

import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { DemoEvent } from "../../../engine/demo/demo.js";
import type { VerdictCard } from "../../../engine/review/verdict.js";
import { emit, type Io } from "../io.js";
import { shellQuote } from "./args.js";
import { declareVerb } from "./registry.js";

export function registerDemoCommand(program: Command, io: Io): void {
  declareVerb(program, "demo")
    .option("--dir <path>", "create the scratch directory here instead of the system temp directory")
    .action(async (opts: { dir?: string }) => {
      const { runDemo } = await import("../../../engine/demo/demo.js");
      const { formatVerdictCard } = await import("../../../engine/review/verdict.js");
      const say = io.json ? io.err : io.out;
      const result = await runDemo({
        scriptedModel: fileURLToPath(new URL("../../pi/scripted-model.js", import.meta.url)),
        env: process.env,
        parentDir: opts.dir,
        progress: (event) => formatDemoEvent(event, formatVerdictCard).forEach((line) => say(line)),
      });
      emit(io, { ...result, next: nextCommands(result.repo, result.home) }, (r) => [
        "",
        `Done in ${r.seconds.toFixed(1)} s: ${r.architect} planned, ${r.implementer} implemented, ${r.promotedFiles.length} files promoted, ${r.decisions} decisions recorded.`,
        "Look around (each line runs as written; the last two start and stop the review page):",
        ...r.next.map((c) => `  ${c}`),
      ]);
    });
}

/** The closing hints: commands that run as written in a fresh shell once `docket` is on the PATH. */
function nextCommands(repo: string, home: string): string[] {
  const cd = `cd ${shellQuote(repo)}`;
  const at = `DOCKET_HOME=${shellQuote(home)}`;
  return [
    `${cd} && node test.js && git diff --stat`,
    `${at} docket ls --all`,
    `${at} docket log`,
    `${cd} && ${at} docket web --detach --no-open`,
    `${cd} && ${at} docket web --stop`,
  ];
}

export function formatDemoEvent(event: DemoEvent, formatCard: (card: VerdictCard) => string[]): string[] {
  const pad = (lines: string[]) => lines.map((l) => `         │ ${l}`);
  switch (event.kind) {
    case "step":
      return [`[${event.elapsed.toFixed(1).padStart(5)}s] ${event.text}`];
    case "card":
      return pad(formatCard(event.card));
    case "file":
      return pad([
        `${event.path}:`,
        ...event.text
          .trimEnd()
          .split("\n")
          .map((l) => `  ${l}`),
      ]);
    case "log":
      return pad([
        `counts: ${Object.entries(event.log.counts)
          .map(([verb, n]) => `${verb} ${n}`)
          .join(" · ")}`,
        ...event.log.decisions.map(
          (d) =>
            `${d.id.padEnd(4)} ${d.verb.padEnd(8)} ${d.worker.padEnd(3)} ${d.deliverable?.ref ?? ""}${d.option ? ` · ${d.option}` : ""} · ${d.actor}`,
        ),
      ]);
  }
}
