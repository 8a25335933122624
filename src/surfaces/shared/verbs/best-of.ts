// `docket spawn --best-of N`: the flags of a group spawn (comma lists that cycle over the N candidates) turned into one
// engine call, and the group rendered as its candidates. Loaded only when --best-of is given.

import { usageError } from "../../../domain/errors.js";
import { parseCandidateList, resolveCandidateSpecs } from "../../../domain/groups/candidates.js";
import { isWorkerAgent, WORKER_AGENTS } from "../../../domain/workers/spawn-policy.js";
import { emit, warn, type Io } from "../io.js";
import type { EngineOpener } from "../session.js";
import { spawnInputOf, type SpawnFlags } from "./spawn-flags.js";

type BestOfFlags = SpawnFlags & { bestOf: number };

export async function runBestOf(io: Io, engine: EngineOpener, words: string[], opts: BestOfFlags): Promise<void> {
  for (const [flag, given] of [
    ["--item", opts.item.length > 0],
    ["--dry-run", opts.dryRun],
    ["--wait", opts.wait],
    ["--seed", opts.seed !== undefined],
  ] as const) {
    if (given)
      throw usageError(
        "bad-flag",
        `${flag} does not apply to --best-of`,
        flag === "--item" ? "dispatch the item to the chosen candidate afterwards" : "spawn one worker to use it",
      );
  }
  const agents = opts.agent === undefined ? undefined : parseCandidateList("--agent", opts.agent);
  for (const a of agents ?? [])
    if (a !== "-" && !isWorkerAgent(a))
      throw usageError("bad-flag", `--agent must list agents from ${WORKER_AGENTS.join(", ")}; got "${a}"`);
  const specs = resolveCandidateSpecs({
    count: opts.bestOf,
    ...(agents ? { agents } : {}),
    ...(opts.model !== undefined ? { models: parseCandidateList("--model", opts.model) } : {}),
    ...(opts.scripted !== undefined ? { scripted: parseCandidateList("--scripted", opts.scripted) } : {}),
  });
  const ctx = engine();
  const candidates = specs.map((s) =>
    spawnInputOf(io, words, { ...opts, agent: s.agent, model: s.model, scripted: s.scripted }, ctx.cwd),
  );
  warn(io, ctx.configWarnings());
  const { spawnBestOf } = await import("../../../engine/groups/spawn-group.js");
  const allScripted = specs.every((s) => s.scripted !== undefined);
  const r = await spawnBestOf(ctx, {
    task: words.join(" "),
    candidates,
    ...(opts.budget !== undefined ? { budgetUsd: opts.budget } : {}),
    // Scripted candidates only spend nothing: a group with any other still confirms.
    yes: Boolean(opts.yes) || allScripted,
    ...(!opts.yes && allScripted ? { yesFrom: "--scripted: its model spends nothing" } : {}),
    interactive: io.interactive,
    confirm: async (resolved) => {
      io.err(
        resolved
          .flatMap((ex, i) => [
            `candidate ${i + 1}:`,
            ...ex.summary.map((l) => `  ${l}`),
            ...ex.confirm.reasons.map((why) => `  confirm: ${why}`),
          ])
          .join("\n"),
      );
      return io.confirm(`Launch these ${resolved.length} candidates?`);
    },
  });
  const candidatesOut = r.candidates.map((c) => ({
    worker: c.worker,
    generation: c.generation,
    kind: c.kind,
    execution: c.execution,
  }));
  emit(io, { group: r.group, candidates: candidatesOut, notes: r.notes }, (x) => [
    `${x.group} started: ${x.candidates.length} candidates on the same brief`,
    ...x.candidates.map(
      (c) => `  ${c.worker} · ${c.kind} · ${c.execution.model ?? "(agent's default model)"} · ${c.execution.workspace}`,
    ),
    ...x.notes.map((n) => `  ${n}`),
    `  compare: \`docket compare ${x.group}\`   choose: \`docket choose <ref>\``,
  ]);
}
