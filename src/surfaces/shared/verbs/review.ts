// `docket approve|reject|revise|answer|promote|discard|verdict|log`: judging one exact deliverable version.
// JSON is a contract (`{"decision":{…}}`, verdict card, log); human notes go with the text output.

import { WAIT_MS, waitedLine } from "./waited.js";
import { quotePath } from "../../../domain/text/quote-path.js";
import type { Command } from "commander";
import { confirmationDeclined, confirmationRefused, resolveConfirmation } from "../../../domain/review/confirmation.js";
import { refusal, usageError } from "../../../domain/errors.js";
import { parsePositiveInt } from "./args.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { runVerdict } from "./verdict.js";
import { formatAnchor } from "../../../domain/review/comment-anchor.js";
import { declareVerb } from "./registry.js";

const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

interface DecisionLike {
  decision: {
    id: string;
    verb: string;
    worker: string;
    deliverable: { id: string; version: number; ref: string } | null;
  };
  notes: string[];
}

function emitDecision(io: Io, r: DecisionLike, extra: string[] = []): void {
  emit(io, { decision: r.decision }, (x) => [
    `${x.decision.id} ${x.decision.verb} ${x.decision.deliverable?.ref ?? x.decision.worker}`,
    ...r.notes.map((n) => `  ${n}`),
    ...extra,
  ]);
}

const versionOption = (cmd: Command) =>
  cmd.option(
    "--version <n>",
    "with a bare worker id: the version you mean (an older one is refused)",
    parsePositiveInt("--version"),
  );

export function registerReviewCommands(program: Command, io: Io, engine: EngineOpener): void {
  registerJudgment(program, io, engine);
  registerChanges(program, io, engine);
  registerReading(program, io, engine);
}

/** `docket approve`, `reject`, `revise` and `answer`: decisions on one exact version or question. */
function registerJudgment(program: Command, io: Io, engine: EngineOpener): void {
  versionOption(
    declareVerb(program, "approve").argument(
      "<w|ref>",
      "w<N> (its current version) or worker-deliverable:w<N>:<K> (that exact version)",
    ),
  ).action(async (target: string, opts: { version?: number }) => {
    const { approve } = await import("../../../engine/review/judge.js");
    emitDecision(io, approve(engine(), { target, version: opts.version }));
  });

  versionOption(
    declareVerb(program, "reject")
      .argument("<w|ref>", "w<N> or worker-deliverable:w<N>:<K>")
      .option("--note <text>", "why"),
  ).action(async (target: string, opts: { version?: number; note?: string }) => {
    const { reject } = await import("../../../engine/review/judge.js");
    emitDecision(io, reject(engine(), { target, version: opts.version, note: opts.note }));
  });

  versionOption(
    declareVerb(program, "revise")
      .argument("<w|ref>", "w<N> or worker-deliverable:w<N>:<K>")
      .argument("[note...]", "what to change (optional when the version has draft comments: they are sent with it)"),
  ).action(async (target: string, words: string[], opts: { version?: number }) => {
    const { revise } = await import("../../../engine/review/judge.js");
    emitDecision(
      io,
      revise(engine(), { target, version: opts.version, note: words.length > 0 ? words.join(" ") : undefined }),
    );
  });

  declareVerb(program, "answer")
    .argument("<w>", "the worker")
    .argument(
      "[text...]",
      "the answer; a number within the question's options (1, 2, …) picks that option, as on pi's card; without it, a terminal or pi offers the options to pick from",
    )
    .option("--q <question-id>", "which open question")
    .option(
      "--wait",
      "then return once the worker has its next version, a question, a failure or an exit (at most 5 minutes)",
    )
    .action(async (worker: string, words: string[], opts: { q?: string; wait?: boolean }) => {
      const { answer } = await import("../../../engine/review/judge.js");
      const ctx = engine();
      const picked = words.length > 0 ? undefined : await pickAnswer(io, ctx, worker, opts.q);
      const r = answer(ctx, {
        worker,
        question: picked?.question ?? opts.q,
        text: picked?.text ?? words.join(" "),
      });
      if (!opts.wait) return emitDecision(io, r);
      const waited = await (await import("../../../engine/workers/wait.js")).waitForWorker(
        ctx,
        r.decision.worker,
        WAIT_MS,
      );
      emit(io, { decision: r.decision, waited }, (x) => [
        `${x.decision.id} ${x.decision.verb} ${x.decision.worker}`,
        ...r.notes.map((n) => `  ${n}`),
        waitedLine(x.decision.worker, waited),
      ]);
    });
}

/** `answer <w>` without text: the question's options offered as a picker (pi's select, a terminal's numbered list). */
async function pickAnswer(
  io: Io,
  ctx: ReturnType<EngineOpener>,
  worker: string,
  question: string | undefined,
): Promise<{ question: string; text: string }> {
  if (!io.interactive)
    throw usageError(
      "missing-answer",
      "answer needs the text of your answer here (nothing can be picked off a terminal)",
      "`docket answer <w> <text>`, or a number to pick that option",
    );
  const { questionChoices } = await import("../../../engine/review/answer-choices.js");
  const q = questionChoices(ctx, { worker, question });
  const own = "something else (type it)";
  const title = `${q.worker} asks (${q.question}): ${q.text}`;
  const chosen = q.options.length > 0 ? await io.select(title, [...q.options, own]) : own;
  const text = chosen === own ? await io.input(`Your answer to ${title}`) : chosen;
  if (!text?.trim()) throw refusal("answer-cancelled", `nothing was picked; ${q.question} is still open`);
  return { question: q.question, text };
}

/** `docket promote` and `discard`: what happens to a worker's changes, each asked for before it happens. */
function registerChanges(program: Command, io: Io, engine: EngineOpener): void {
  versionOption(
    declareVerb(program, "promote")
      .argument("<w|ref>", "w<N>, worker-deliverable:w<N>:<K>, or a stored deliverable:<id>:<v> / d<N>")
      .option("--approve", "record the approval together with the promotion")
      .option("--yes", "promote despite changes in your checkout and overlaps with other workers (they are listed)"),
  ).action(async (target: string, opts: { version?: number; approve?: boolean; yes?: boolean }) => {
    const { promote } = await import("../../../engine/review/promote.js");
    const { previewPromotion } = await import("../../../engine/review/promote-preview.js");
    const { doesNotApply } = await import("../../../engine/review/apply-frozen.js");
    const ctx = engine();
    const input = { target, version: opts.version, approve: Boolean(opts.approve), yes: Boolean(opts.yes) };
    let yes = input.yes;
    if (!yes && io.interactive) {
      const plan = previewPromotion(ctx, input);
      // Said before asking: a "yes" would only lead to the same refusal.
      if (!plan.check.ok && !plan.alreadyApplied) throw doesNotApply(plan, plan.check.problems);
      if (resolveConfirmation("promote", { yes, interactive: true, needed: plan.needsConfirmation }) === "ask") {
        io.err(
          [`Promote ${plan.ref} (${plan.files.length} files)?`, ...plan.warnings.map((w) => `  ⚠ ${w.text}`)].join(
            "\n",
          ),
        );
        if (!(await io.confirm("Promote despite these warnings?"))) throw confirmationDeclined("promote", plan.ref);
        yes = true;
      }
    }
    const r = promote(ctx, { ...input, yes });
    emit(
      io,
      { decision: r.decision, ...(r.approval ? { approval: r.approval } : {}), files: r.files, workspace: r.workspace },
      (x) => [
        ...(r.approval ? [`${r.approval.id} approve ${r.approval.deliverable?.ref}`] : []),
        `${x.decision.id} promote ${x.decision.deliverable?.ref}`,
        ...x.files.map((f) => `  ${quotePath(f)}`),
        ...r.notes.map((n) => `  ${n}`),
      ],
    );
  });

  declareVerb(program, "discard")
    .argument("<w>", "the worker")
    .option("--yes", "do not ask for confirmation")
    .action(async (worker: string, opts: { yes?: boolean }) => {
      // Refused before the confirmation is asked: a worker's terminal is never prompted to judge.
      (await import("../../../engine/authority.js")).assertHuman(engine(), "discard");
      const step = resolveConfirmation("discard", { yes: Boolean(opts.yes), interactive: io.interactive });
      if (step === "refuse") throw confirmationRefused("discard", worker);
      if (
        step === "ask" &&
        !(await io.confirm(`Drop ${worker}'s live changes and reset its workspace to its base? This cannot be undone.`))
      ) {
        throw confirmationDeclined("discard", worker);
      }
      const { discard } = await import("../../../engine/review/judge.js");
      const r = discard(engine(), { worker, confirmed: true });
      emitDecision(
        io,
        r,
        r.files.map((f) => `  dropped ${quotePath(f)}`),
      );
    });
}

/** `docket verdict` and `log`: the review card (or queue) and the decisions recorded. */
function registerReading(program: Command, io: Io, engine: EngineOpener): void {
  versionOption(declareVerb(program, "verdict").argument("[w|ref]", "w<N> or worker-deliverable:w<N>:<K>")).action(
    async (target: string | undefined, opts: { version?: number }) => {
      await runVerdict(io, engine, target, opts.version);
    },
  );

  declareVerb(program, "log")
    .option("--since <duration>", "window such as 7d, 24h, 30m (default 7d)")
    .option("--limit <n>", "recent rows to show (default 25)", parsePositiveInt("--limit"))
    .action(async (opts: { since?: string; limit?: number }) => {
      const { decisionLog } = await import("../../../engine/review/decision-log.js");
      const log = decisionLog(engine(), { since: opts.since, limit: opts.limit });
      const decisions = log.decisions.map((d) => ({
        id: d.id,
        at: d.at,
        actor: d.actor,
        verb: d.verb,
        worker: d.worker,
        deliverable: d.deliverable,
        option: d.option,
        note: d.note,
        risk: d.risk,
        question: d.question,
        evidenceRefs: d.evidenceRefs,
        ...(log.comments[d.id] ? { comments: log.comments[d.id] } : {}),
      }));
      emit(io, { counts: log.counts, debt: log.debt.length, decisions }, (x) => {
        const total = Object.values(x.counts).reduce((a, b) => a + b, 0);
        const lines = [`Decisions · last ${log.window} · ${total} recorded`];
        lines.push(
          total === 0
            ? "  no decisions"
            : `  ${Object.entries(x.counts)
                .map(([v, n]) => `${v} ${n}`)
                .join(" · ")}`,
        );
        lines.push(`decision debt: ${x.debt} worker${x.debt === 1 ? "" : "s"} pruned with an unjudged version`);
        for (const d of log.debt.slice(0, 10))
          lines.push(`  ${d.at} ${d.worker} ${d.deliverableRef ?? "(no deliverable)"} (${d.state ?? "?"})`);
        if (x.decisions.length > 0) lines.push("", "Recent");
        for (const d of x.decisions) {
          const what = d.option ?? d.note;
          lines.push(
            `  ${d.at} ${d.id} ${d.verb.padEnd(7)} ${d.worker}${d.deliverable ? ` [${d.deliverable.ref}]` : ""}${what ? ` "${what.length > 60 ? `${what.slice(0, 59)}…` : what}"` : ""}${d.actor !== "human" ? ` (${d.actor})` : ""}${d.risk ? ` ⚠ ${d.risk}` : ""}`,
          );
          for (const c of d.comments ?? [])
            lines.push(`      ${c.id} ${formatAnchor(c.anchor)}: ${oneLine(c.text, 70)}`);
        }
        return lines;
      });
    });
}
