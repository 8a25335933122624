// `docket use <w|ref> --parent|--worker` and `docket chips [drop <id>]`: handing an approved exact version onward.
// Use re-checks approval at the moment of use; Use → Worker confirms unless --yes.

import type { Command } from "commander";
import { AGENT_TRAITS, agentsWhere, isWorkerAgent } from "../../../domain/agents/traits.js";
import { usageError } from "../../../domain/errors.js";
import { confirmationDeclined, confirmationRefused, resolveConfirmation } from "../../../domain/review/confirmation.js";
import { collect, parseAssignments, parsePositiveInt } from "./args.js";
import type { Io } from "../io.js";
import { emit, warn } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

interface UseFlags {
  parent?: boolean;
  worker?: boolean;
  implement?: boolean;
  item: string[];
  task?: string;
  as?: string;
  agent: string;
  cmd?: string;
  model?: string;
  thinking?: string;
  env: string[];
  worktree?: boolean;
  yes?: boolean;
  version?: number;
}

export function registerUseCommands(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "use")
    .argument("<w|ref>", "w<N>, worker-deliverable:w<N>:<K>, or a stored deliverable ref")
    .option(
      "--implement",
      "an approved plan: start one implementer (kind from config implementKind) with the plan gate discharged",
    )
    .option("--parent", "queue the full body as a chip for your pi session's next prompt")
    .option("--worker", "start exactly one fresh worker with the body as reviewed input")
    .option("--task <text>", "the new worker's task (--implement: default from the plan's goal)")
    .option("--item <id>", "dispatch this item to the new worker (repeatable)", collect, [])
    .option("--as <kind>", "the new worker's kind")
    .option("--agent <agent>", "pi | command", "pi")
    .option("--cmd <shell-command>", "the command of a --agent command worker")
    .option("--model <provider/model>", "model for a pi worker")
    .option("--thinking <level>", "off | minimal | low | medium | high | xhigh")
    .option("--env <NAME=VALUE>", "environment for the new worker (repeatable)", collect, [])
    .option("--worktree", "give a read-only kind its own worktree too")
    .option("--version <n>", "with a bare worker id: the version you mean", parsePositiveInt("--version"))
    .option("--yes", "do not ask for confirmation")
    .action(async (target: string, opts: UseFlags) => {
      if ([opts.parent, opts.worker, opts.implement].filter(Boolean).length !== 1) {
        throw usageError("bad-flag", "say where to use it: exactly one of --implement, --parent or --worker");
      }
      if (opts.parent) {
        const spawnFlags = ["task", "as", "cmd", "model", "thinking", "worktree"].filter(
          (k) => opts[k as keyof UseFlags] !== undefined,
        );
        if (spawnFlags.length > 0 || opts.env.length > 0 || opts.item.length > 0) {
          throw usageError(
            "bad-flag",
            `--${spawnFlags[0] ?? (opts.env.length > 0 ? "env" : "item")} only goes with --worker or --implement`,
          );
        }
        const { useForParent } = await import("../../../engine/handoff/use.js");
        const r = useForParent(engine(), { target, version: opts.version });
        emit(io, { chip: r.chip, decision: r.decision, queued: true, alreadyQueued: r.alreadyQueued }, () => r.notes);
        return;
      }
      if (!isWorkerAgent(opts.agent) || !AGENT_TRAITS[opts.agent].startsFromUse)
        throw usageError(
          "bad-flag",
          `--agent must be ${agentsWhere((t) => t.startsFromUse).join(" or ")}; got "${opts.agent}"`,
        );
      const env = parseAssignments("--env", opts.env);
      const { useForWorker } = await import("../../../engine/handoff/use.js");
      const ctx = engine();
      // Refused before the confirmation is asked: a worker's terminal is never prompted to judge.
      (await import("../../../engine/authority.js")).assertHuman(ctx, "use");
      warn(io, ctx.configWarnings());
      const step = resolveConfirmation("use --worker", { yes: Boolean(opts.yes), interactive: io.interactive });
      if (step === "refuse") throw confirmationRefused("use --worker", target);
      if (step === "ask") {
        io.err(
          [
            `Reviewed source: ${target}`,
            `Task: ${opts.task ?? (opts.implement ? "(from the plan's goal)" : "(work from the source)")}`,
            `Agent: ${opts.agent}${opts.as ? ` · kind ${opts.as}` : ""}${opts.model ? ` · model ${opts.model}` : ""}`,
          ].join("\n"),
        );
        if (
          !(await io.confirm(
            opts.implement ? "Start an implementer on this approved plan?" : "Start reviewed handoff worker?",
          ))
        )
          throw confirmationDeclined("use --worker", target);
      }
      const r = await useForWorker(ctx, {
        target,
        version: opts.version,
        task: opts.task,
        agent: opts.agent,
        command: opts.cmd,
        kind: opts.as,
        model: opts.model,
        thinking: opts.thinking,
        env,
        worktree: opts.worktree,
        yes: true,
        interactive: io.interactive,
        implement: Boolean(opts.implement),
        items: opts.item,
        ...(io.parent ? { parent: io.parent } : {}),
      });
      const lines = () => [
        `${r.worker} (${r.kind}) started from ${r.sourceHandoff.sourceRef} · plan gate ${r.planGate}`,
        ...r.notes.map((n) => `  ${n}`),
      ];
      if (opts.implement)
        emit(io, { worker: r.worker, kind: r.kind, sourceHandoff: r.sourceHandoff, planGate: r.planGate }, lines);
      else emit(io, { worker: r.worker, sourceHandoff: r.sourceHandoff }, lines);
    });

  const chips = declareVerb(program, "chips")
    .option("--all", "include consumed and dropped chips")
    .action(async (opts: { all?: boolean }) => {
      const { chipList } = await import("../../../engine/handoff/use.js");
      const list = chipList(engine(), { all: Boolean(opts.all) });
      emit(io, { chips: list }, (x) =>
        x.chips.length === 0
          ? "no queued chips"
          : x.chips.map((c) => `${c.id.padEnd(5)} ${c.state.padEnd(8)} ${c.ref} (${c.bytes} bytes)`),
      );
    });
  chips
    .command("drop")
    .description("drop a queued chip")
    .argument("<id>", "c<N>")
    .action(async (id: string) => {
      const { dropChip } = await import("../../../engine/handoff/use.js");
      const c = dropChip(engine(), id);
      emit(io, { chip: c }, (x) => `${x.chip.id} dropped (${x.chip.ref})`);
    });
}
