// What a spawn decides before anything is written: the input's checks, the spawn policy, containment, the host,
// and the stored execution a launch repeats (docs/decisions/spawn-policy.md). A refusal here leaves no row, no
// workspace, no window.

import { homedir } from "node:os";
import { join, relative } from "node:path";
import type { DocketConfig } from "../../domain/config.js";
import type { SourceHandoff } from "../../domain/deliverables/deliverable.js";
import { DocketError, refusal, usageError, validationError } from "../../domain/errors.js";
import type { StoredExecution } from "../../domain/workers/execution.js";
import type { WorkerKind } from "../../domain/workers/kinds.js";
import { AGENT_TRAITS, isMcpAgent, type WorkerAgent } from "../../domain/agents/traits.js";
import { resolveSpawnPolicy, type ResolvedExecution } from "../../domain/workers/spawn-policy.js";
import type { TaskBriefHandoff } from "../../domain/workers/task-brief.js";
import type { ModelListing } from "../../substrate/agents/pi.js";
import { assertHuman } from "../authority.js";
import type { EngineContext } from "../context.js";
import { placeOf } from "../places/place.js";
import { requireMcpAgent } from "./agents.js";
import { decideContainment, type Containment } from "./containment.js";
import { assertCopyableProject } from "./copy-workspace.js";
import { kindRegistry, trustedKindChoice } from "./kinds.js";
import { modelListingLock } from "./locks.js";

export interface SpawnHandoff {
  /** What task.md says about the reviewed source. */
  brief: TaskBriefHandoff;
  /** Written byte-exact to `fleet/<id>/source-deliverable.md` before launch. */
  sourceBody: string;
  /** Provenance stored on the worker row (`source_handoff`). */
  record: SourceHandoff;
}

export interface SpawnInput {
  task: string;
  agent?: WorkerAgent;
  /** The shell command of a `--agent command` worker. */
  command?: string;
  kind?: string;
  model?: string;
  thinking?: string;
  seedFile?: string;
  fresh?: boolean;
  worktree?: boolean;
  items?: readonly string[];
  env?: Record<string, string>;
  /** pi arguments of this worker after the configured ones (`--scripted` adds its extension); kept for respawn. */
  piArgs?: readonly string[];
  yes?: boolean;
  /** What set `yes` when the human did not type `--yes` (see SpawnPolicyInput.yesFrom). */
  yesFrom?: string;
  interactive?: boolean;
  /** Asked only when the policy wants a confirmation, the caller is interactive and `--yes` was not given. */
  confirm?: (execution: ResolvedExecution) => Promise<boolean>;
  /** The parent's model/thinking/session when spawned from inside pi; otherwise pi's configured defaults. */
  parent?: { model?: string; thinking?: string; sessionFile?: string };
  handoff?: SpawnHandoff;
  /** Stop the worker's agent once its recorded cost reaches this many USD (default: config worker.budgetUsd; 0
   * none). */
  budgetUsd?: number;
  /** Run the worker on this host of the user's config, over ssh; default: the user config's worker.host. */
  host?: string;
  /** Run it on this machine even when the user config names a worker.host. */
  local?: boolean;
}

export interface ResolvedSpawn {
  task: string;
  config: DocketConfig;
  resolved: ResolvedExecution;
  kind: WorkerKind;
  defaultKind: ReturnType<typeof trustedKindChoice>;
  execution: StoredExecution;
  /** pi's model listing the policy was checked against (pi workers only). */
  listing?: ModelListing;
  containment: Containment;
}

/**
 * Everything decided before anything is written: the policy, the stored execution, and the agent found on disk.
 * `withHandoff`: a use checks its launch before its decision exists (the handoff names that decision).
 */
export async function resolveSpawn(
  ctx: EngineContext,
  input: SpawnInput,
  withHandoff = input.handoff !== undefined,
): Promise<ResolvedSpawn> {
  assertHuman(ctx, "spawn");
  const task = input.task.trim();
  if (!task) {
    throw validationError("empty-task", "a worker needs a task; say what it should do", '`docket spawn "<task>"`');
  }
  const config = ctx.config();
  const agent = input.agent ?? config.worker.agent;
  const traits = AGENT_TRAITS[agent];
  if (traits.runsUserCommand && !input.command?.trim()) {
    throw usageError("missing-cmd", "--agent command needs --cmd '<shell command>'");
  }
  if (!traits.runsUserCommand && input.command !== undefined) {
    throw usageError("cmd-needs-command-agent", "--cmd is only for --agent command");
  }
  if (isMcpAgent(agent)) requireMcpAgent(ctx.agents, agent, ctx.env.PATH);
  const registry = kindRegistry(ctx);
  refuseWideningKind(registry, input.kind);
  const defaultKind = trustedKindChoice(ctx, registry.kinds, "defaultKind");
  const piArgs = [...ctx.agents.piExtraArgs(config.pi.extraArgs, ctx.env.DOCKET_PI_ARGS), ...(input.piArgs ?? [])];
  const listing = traits.model === "docket-picks" ? availableModels(ctx, piArgs) : undefined;
  const resolved = resolveSpawnPolicy({
    agent,
    kindFlag: input.kind,
    modelFlag: input.model,
    thinkingFlag: input.thinking,
    seedFile: input.seedFile,
    fresh: input.fresh,
    worktree: input.worktree,
    handoff: withHandoff,
    interactive: Boolean(input.interactive),
    yes: Boolean(input.yes),
    ...(input.yes && input.yesFrom !== undefined ? { yesFrom: input.yesFrom } : {}),
    config: { defaultKind: defaultKind.name, parentSeedPolicy: config.worker.parentSeedPolicy },
    kinds: registry.kinds,
    parent: input.parent ?? ctx.agents.piDefaults(ctx.env, homedir()),
    availableModels: listing?.models ?? [],
  });
  const kind = registry.kinds.get(resolved.kind);
  if (!kind) throw validationError("unknown-kind", `kind "${resolved.kind}" is not defined; run \`docket kinds\``);
  const host = input.local ? undefined : (input.host ?? config.worker.host);
  // `required` and no sandbox: refused before anything is written.
  const containment = decideContainment(ctx, { ...resolved, ...(host !== undefined ? { host } : {}) });
  if (config.worker.unattended && isMcpAgent(agent) && !containment.contained) {
    throw refusal(
      "unattended-needs-sandbox",
      `worker.unattended turns ${agent}'s permission prompts off, which Docket allows only inside its sandbox, ` +
        `and this worker would not be contained (${containment.why}); nothing was started`,
      'set "sandbox": "auto" (or "required") in your config on a machine where `docket doctor` says ' +
        "containment works, or set worker.unattended to false",
    );
  }
  if (resolved.workspace === "isolated") assertCopyableProject(ctx, ctx.projectRoot()); // outside git it is a copy
  const subdir = relative(ctx.projectRoot(), ctx.cwd);
  const execution: StoredExecution = {
    ...resolved,
    piArgs: traits.extraArgs === "pi-args" ? piArgs : [],
    ...(traits.runsUserCommand ? { command: input.command } : {}),
    ...(isMcpAgent(agent) ? { agentArgs: config[agent].extraArgs } : {}),
    subdir: subdir.startsWith("..") ? "" : subdir,
    ...(host !== undefined ? { host } : {}),
  };
  const from = input.host !== undefined ? "--host" : "worker.host";
  placeOf(ctx, { execution }).assertSpawnable({ agent, workspace: resolved.workspace, from });
  return { task, config, resolved, kind, defaultKind, execution, listing, containment };
}

/** A kind the human asked for that a project defined but was not loaded because it would widen authority. */
function refuseWideningKind(registry: ReturnType<typeof kindRegistry>, kindFlag: string | undefined): void {
  const asked = kindFlag?.trim().toLowerCase();
  if (!asked || registry.kinds.has(asked)) return;
  const skipped = registry.diagnostics.find((d) => d.message.startsWith(`project kind ${asked} would `));
  if (!skipped) return;
  throw refusal(
    "kind-widens",
    `kind "${asked}" was not loaded: ${skipped.path}: ${skipped.message}; nothing was started`,
    "run `docket kinds` to see the kinds that loaded, or put the kind in your own kinds folder if you trust it",
  );
}

/** Where the worker runs, and when a config default chose it, how to run it here instead. */
export function whereLine(ctx: EngineContext, execution: StoredExecution, input: SpawnInput): string {
  return `Runs on: ${placeOf(ctx, { execution }).runsOn(input.host === undefined)}`;
}

function availableModels(ctx: EngineContext, piArgs: string[]): ModelListing {
  try {
    return ctx.agents.listModels(piArgs, ctx.env, ctx.projectRoot(), {
      cacheFile: join(ctx.home.root, "cache", "pi-models.json"),
      nowMs: ctx.clock.nowMs(),
      serialize: modelListingLock(ctx),
    });
  } catch (error) {
    const why = (error as Error).message.split("\n")[0];
    throw new DocketError("refusal", "pi-models-unavailable", `could not ask pi for its models: ${why}`, {
      hint: "check that pi runs (npx pi --list-models) and that DOCKET_PI_ARGS / pi.extraArgs are valid",
      cause: error,
    });
  }
}
