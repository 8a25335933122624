// `docket spawn|respawn|peek|tell|attach|delete|prune` (ls and show: workers-listing.ts): starting, talking to and
// retiring workers. Each command parses flags, makes one engine call and renders one result for --json and humans.

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import { collect, parsePositiveInt, parseUsd, shellQuote } from "./args.js";
import type { Io } from "../io.js";
import { ReportedExit, emit, warn } from "../io.js";
import type { EngineOpener } from "../session.js";
import { WORKER_AGENTS, isWorkerAgent } from "../../../domain/workers/spawn-policy.js";
import { listAgents, type AgentAvailability } from "../../../engine/workers/agents.js";
import { SCRIPTED_STEP_FORMAT } from "../../../engine/workers/scripted.js";
import { WAIT_MS, waitedLine } from "./waited.js";
import { registerListing } from "./workers-listing.js";
import { spawnInputOf, type SpawnFlags } from "./spawn-flags.js";
import type { WaitOutcome } from "../../../engine/workers/wait.js";
import type { EngineContext } from "../../../engine/context.js";
import { declareVerb } from "./registry.js";

export function registerWorkersCommands(program: Command, io: Io, engine: EngineOpener): void {
  registerSpawn(program, io, engine);
  registerRespawn(program, io, engine);
  registerListing(program, io, engine);
  registerTalk(program, io, engine);
  registerRetire(program, io, engine);
}

/** `docket spawn`: its flags and help; the launch itself is runSpawn. */
function registerSpawn(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "spawn")
    .argument("<task...>", "what the worker should do")
    .option("--agent <agent>", "pi | claude | codex | command (default: config worker.agent, else pi)")
    .option("--cmd <shell-command>", "the command of a --agent command worker (runs in its workspace)")
    .option("--as <kind>", "worker kind (docket kinds lists them)")
    .option(
      "--model <model>",
      "pi: provider/model exactly as pi --list-models shows it; claude/codex: the name that CLI takes, passed through",
    )
    .option("--thinking <level>", "off | minimal | low | medium | high | xhigh")
    .option("--seed <session-file>", "seed the worker with this pi session")
    .option("--fresh", "start with a fresh context (the default)")
    .option("--worktree", "give a read-only kind its own worktree too")
    .option("--item <id>", "dispatch this item to the new worker (repeatable)", collect, [])
    .option(
      "--env <NAME=VALUE>",
      "put a variable into the worker's environment (repeatable; the value is kept only in its private 0600 env file)",
      collect,
      [],
    )
    .option(
      "--scripted <steps.json>",
      "a pi worker driven by Docket's scripted model: no model key, no network (format below)",
    )
    .option("--wait", "return once the worker has a version, a question, a failure or an exit (at most 5 minutes)")
    .option(
      "--host <name>",
      "run the worker on this host of your config over ssh (docket hosts ls; pi and command workers; default: config worker.host)",
    )
    .option("--local", "run the worker on this machine even when your config names a worker.host")
    .option("--yes", "do not ask for confirmation")
    .option(
      "--budget <usd>",
      "stop the worker's agent once its recorded cost reaches this many US dollars (notified at 80 %)",
      parseUsd("--budget"),
    )
    .option("--dry-run", "print the resolved launch and the command the window would run; start nothing")
    .option(
      "--best-of <n>",
      "start N candidates (2-10) on the same brief as one group b<N>; --agent, --model and --scripted then take comma lists that cycle over them, and --budget is the group's total",
      parsePositiveInt("--best-of"),
    )
    .addHelpText("after", () =>
      [
        "",
        "--best-of N: one group (b1, b2, …) of N candidates, each its own worker in its own worktree. Lists cycle:",
        "  --best-of 4 --agent pi,claude --model a/x,b/y → pi a/x, claude b/y, pi a/x, claude b/y; `-` leaves one unset.",
        "  Every candidate's policy is resolved before any starts, and confirmed once. Then `docket compare b<N>`,",
        "  `docket choose <ref>` (approves it, records the others as not chosen, stops them), `docket promote <ref>`.",
        "",
        "--scripted: try workers without a model key. Each model call is answered by the next step of the file.",
        ...SCRIPTED_STEP_FORMAT,
        "",
        "pi workers get extra pi arguments from your user config (pi.extraArgs, a list) and from DOCKET_PI_ARGS",
        "(split on whitespace, no quoting), e.g. DOCKET_PI_ARGS='-ne -e ./my-provider.js'. The models a worker",
        "may use are the ones `pi --list-models` prints with those same arguments. tmux does not pass your environment",
        "on: name variables in config worker.passEnv or give them with --env NAME=VALUE.",
        "",
        "Agents on this machine (claude and codex speak to Docket through `docket mcp`):",
        ...formatAgents(listAgents(process.env.PATH)),
      ].join("\n"),
    )
    .action((words: string[], opts: SpawnFlags) => runSpawn(io, engine, words, opts));
}

/** Resolves the flags into one spawn input, then plans it (--dry-run) or starts it, and waits with --wait. */
async function runSpawn(io: Io, engine: EngineOpener, words: string[], opts: SpawnFlags): Promise<void> {
  // Where the workers run is one choice for a group as for one worker.
  if (opts.host !== undefined && opts.local) {
    throw usageError("bad-flag", "--host and --local contradict each other; pick one");
  }
  if (opts.bestOf !== undefined) {
    const { runBestOf } = await import("./best-of.js");
    return runBestOf(io, engine, words, { ...opts, bestOf: opts.bestOf });
  }
  if (opts.agent !== undefined && !isWorkerAgent(opts.agent)) {
    throw usageError("bad-flag", `--agent must be one of ${WORKER_AGENTS.join(", ")}; got "${opts.agent}"`);
  }
  if (opts.seed && opts.fresh) throw usageError("bad-flag", "--seed and --fresh contradict each other; pick one");
  const { planSpawn, spawnWorker } = await import("../../../engine/workers/spawn.js");
  const ctx = engine();
  const input = spawnInputOf(io, words, opts, ctx.cwd);
  warn(io, ctx.configWarnings());
  if (opts.dryRun) {
    const plan = await planSpawn(ctx, input);
    emit(io, plan, (x) => [
      `dry run: would start a ${x.agent} worker of kind ${x.kind}; nothing was started`,
      ...x.summary.map((l) => `  ${l}`),
      `  command: ${formatArgv(x.command)}`,
    ]);
    return;
  }
  const r = await spawnWorker(ctx, {
    ...input,
    items: opts.item,
    ...(opts.budget !== undefined ? { budgetUsd: opts.budget } : {}),
    // A scripted worker spends nothing and runs only the steps you wrote: there is nothing to confirm.
    yes: Boolean(opts.yes) || opts.scripted !== undefined,
    ...(!opts.yes && opts.scripted !== undefined ? { yesFrom: "--scripted: its model spends nothing" } : {}),
    interactive: io.interactive,
    confirm: async (ex) => {
      io.err([...ex.summary, ...ex.confirm.reasons.map((r) => `confirm: ${r}`)].join("\n"));
      return io.confirm("Launch this worker?");
    },
  });
  const { worker, generation, kind, execution, summary } = r;
  const started = { worker, generation, kind, execution, summary };
  const startedLines = (x: typeof started) => [
    `${x.worker} started (generation ${x.generation}, kind ${x.kind})`,
    ...x.summary.map((l) => `  ${l}`),
    ...(r.dispatch ? [`  dispatched ${formatDispatched(r.dispatch)}`] : []),
    `  peek: \`docket peek ${x.worker}\`   attach: \`docket attach ${x.worker}\``,
  ];
  if (!opts.wait) return emit(io, started, startedLines);
  // --wait talks: the worker and its launch at once, then each state it shows as it changes.
  if (!io.json) io.out(startedLines(started).join("\n"));
  const waited = await waitTelling(io, ctx, r.worker);
  emit(io, { ...started, waited }, (x) => [waitedLine(x.worker, waited)]);
  // Anything but a version or a question is not what was waited for: exit 1, its line already printed.
  if (waited !== "ready" && waited !== "needs_input" && waited !== "ended") throw new ReportedExit(1);
}

/**
 * Waits for the worker's next word, printing each state it shows; Ctrl-C (outside pi) stops the wait and leaves the
 * worker running.
 */
async function waitTelling(io: Io, ctx: EngineContext, worker: string): Promise<WaitOutcome> {
  const { waitForWorker } = await import("../../../engine/workers/wait.js");
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  if (!io.parent) process.once("SIGINT", interrupt);
  try {
    return await waitForWorker(ctx, worker, WAIT_MS, {
      signal: stop.signal,
      onChange: (state, reason) => {
        if (!io.json) io.out(`${worker}: ${state.replace("_", " ")}${reason ? ` — ${reason}` : ""}`);
      },
    });
  } finally {
    process.removeListener("SIGINT", interrupt);
  }
}

function registerRespawn(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "respawn")
    .argument("<worker>", "w<N>, or all (every finished worker of this project)")
    .option(
      "--budget <usd>",
      "continue with this budget in US dollars (needed after a budget stopped the worker)",
      parseUsd("--budget"),
    )
    .action(async (target: string, opts: { budget?: number }) => {
      const { respawnTarget } = await import("../../../engine/workers/respawn.js");
      const results = respawnTarget(engine(), target, opts.budget !== undefined ? { budgetUsd: opts.budget } : {});
      if (target.trim() === "all") {
        emit(io, { workers: results.map((r) => ({ worker: r.worker, generation: r.generation })) }, (x) =>
          x.workers.length === 0
            ? "no finished workers to respawn"
            : x.workers.map((w) => `${w.worker} respawned (generation ${w.generation})`),
        );
        return;
      }
      const r = results[0]!;
      emit(
        io,
        { worker: r.worker, generation: r.generation, ...(r.missingEnv.length ? { missingEnv: r.missingEnv } : {}) },
        (x) => [
          `${x.worker} respawned (generation ${x.generation}); the previous process is fenced`,
          ...(r.movedBindings.length ? [`  moved bindings ${r.movedBindings.join(", ")}`] : []),
          ...(r.requeued ? [`  ${r.requeued} unread message(s) queued again for the new process`] : []),
          ...(r.missingEnv.length
            ? [
                `  warning: the values of ${r.missingEnv.join(", ")} were not kept; they are unset in this generation (spawn a new worker with --env to set them)`,
              ]
            : []),
        ],
      );
    });
}

/** `docket ls` and `docket show`: the fleet and one worker, read-only. */
function registerTalk(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "peek")
    .argument("<worker>", "w<N>")
    .option("--lines <n>", "how many lines (default 40, at most 2000)", parsePositiveInt("--lines"))
    .action(async (target: string, opts: { lines?: number }) => {
      const { peekWorker } = await import("../../../engine/talk/tell.js");
      const r = peekWorker(engine(), target, opts.lines);
      emit(io, r, (x) =>
        x.source === "pane-tail" ? [`(${x.worker}'s window is gone; harvested tail)`, x.text] : x.text,
      );
    });

  declareVerb(program, "tell")
    .argument("<worker>", "w<N>")
    .argument("<text...>", "the message (multi-line text stays one message)")
    .addHelpText(
      "after",
      "\nThe text is delivered as given, except: CRLF and CR become LF, trailing spaces on a line and blank first/last lines are\ndropped. A message with any other control character (C0 or C1, e.g. Ctrl-C, escape sequences; newline and tab are fine)\nis refused, not stripped: nothing is queued or pasted.",
    )
    .option("--q <question-id>", "answer this open question of the worker")
    .option("--after", "deliver after the current turn instead of steering it")
    .option("--key <key>", "idempotency key")
    .action(async (target: string, words: string[], opts: { q?: string; after?: boolean; key?: string }) => {
      const { tellWorker } = await import("../../../engine/talk/tell.js");
      const r = tellWorker(engine(), {
        worker: target,
        text: words.join(" "),
        question: opts.q,
        after: opts.after,
        key: opts.key,
      });
      emit(io, { message: r.message, delivery: r.delivery }, (x) => [
        `${x.message} ${x.delivery === "delivered" ? "delivered to" : "queued for"} ${target}${opts.q ? ` (answers ${opts.q})` : ""}`,
        ...(r.pasted === "best-effort"
          ? ["  pasted into its pane (best-effort: a command agent gives no receipt, so it is never marked read)"]
          : []),
        ...(r.pasted === "failed" ? ["  pasting into its pane failed; the message waits in its inbox"] : []),
        ...(r.waiting
          ? [`  ${target} is not running; the message waits in its inbox until docket respawn ${target}`]
          : []),
      ]);
    });

  declareVerb(program, "attach")
    .argument("<worker>", "w<N>")
    .action(async (target: string) => {
      const { attachWorker } = await import("../../../engine/talk/tell.js");
      const r = attachWorker(engine(), target);
      const command = r.command.map(shellQuote).join(" ");
      emit(io, { worker: r.worker, switched: r.switched, command }, (x) =>
        x.switched ? `switched to ${x.worker}` : command,
      );
    });
}

/** `docket delete` and `prune`: retiring workers. */
function registerRetire(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "delete")
    .argument("<worker>", "w<N>")
    .option("--yes", "do not ask for confirmation")
    .option("--force", "also delete changes that were never promoted")
    .action(async (target: string, opts: { yes?: boolean; force?: boolean }) => {
      const { deleteWorker } = await import("../../../engine/workers/delete.js");
      const r = await deleteWorker(engine(), {
        worker: target,
        yes: opts.yes,
        force: opts.force,
        interactive: io.interactive,
        confirm: (q) => io.confirm(q),
      });
      emit(
        io,
        r,
        (x) =>
          `${x.worker} deleted${x.workspaceRemoved ? " (workspace removed)" : ""}${x.cancelledMessages ? `; ${x.cancelledMessages} queued message(s) cancelled` : ""}${x.releasedItems.length ? `; released ${x.releasedItems.join(", ")} back (open, owed by nobody)` : ""}`,
      );
    });

  declareVerb(program, "prune")
    .option("--dry-run", "say what would be pruned, and what is too young; delete nothing")
    .action(async (opts: { dryRun?: boolean }) => {
      const { pruneWorkers } = await import("../../../engine/workers/delete.js");
      emit(io, pruneWorkers(engine(), { dryRun: opts.dryRun }), (x) => [
        x.pruned.length
          ? `${x.dryRun ? "would prune" : "pruned"} ${x.pruned.join(", ")}`
          : `nothing to prune${x.young.length || x.skipped.length ? "" : ": no worker is settled"}`,
        ...x.skipped.map((s) => `  ${x.dryRun ? "would keep" : "kept"} ${s.worker}: ${s.reason}`),
        ...x.young.map(
          (y) =>
            `  ${y.worker}: settled less than ${x.pruneAfterHours} h ago (worker.pruneAfterHours); prunable in ${y.prunableIn}`,
        ),
      ]);
    });
}

const formatDispatched = (d: { bindings: readonly { item: string }[]; dispatch: string }): string =>
  `${d.bindings.map((b) => b.item).join(", ")} (${d.dispatch})`;

/** One line per agent: where it is and the command a worker of it runs. */
export function formatAgents(agents: readonly AgentAvailability[]): string[] {
  return agents.map(
    (a) =>
      `  ${a.agent.padEnd(8)}${a.source === "missing" ? "not found (neither in Docket's node_modules nor on PATH)" : `${a.source.padEnd(13)}${formatArgv(a.command)}`}`,
  );
}

/** An argv as one line a person can read (words with spaces or quotes are JSON-quoted). */
export function formatArgv(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./<>-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
}
