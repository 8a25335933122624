// A contained worker's egress: the allow list its launch derives (written where the door's proxy reads it), and each
// request the proxy saw recorded per destination and minute, with one attention line per refused host.

import {
  launchAllowList,
  PI_PROVIDER_URLS,
  patternText,
  type AgentNeeds,
  type AllowPattern,
  narrowNetwork,
  type NetworkMode,
} from "../../domain/network-policy.js";
import { AGENT_TRAITS } from "../../domain/agents/traits.js";
import type { LaunchExecution } from "../../domain/workers/execution.js";
import { refusal } from "../../domain/errors.js";
import { writeFileAtomic } from "../../files/atomic.js";
import { readJsonFile } from "../../files/json-file.js";
import { WORKER_FILES, workerPath } from "../../files/workers/worker-files.js";
import { addEgressTally, type EgressTally } from "../../ledger/workers/egress.js";
import { insertNotification } from "../../ledger/talk/notifications.js";
import type { EngineContext } from "../context.js";
import { SCRIPTED_MODEL } from "./scripted.js";
import type { EgressPolicyFile, LaunchNetwork } from "./network-view.js";
import { kindRegistry } from "./kinds.js";
import { EGRESS_SOCKET, egressEnv, relayArgv } from "../../domain/workers/egress-plan.js";
import { doorPaths } from "../../files/door-files.js";
import { relayScriptPath } from "../../substrate/egress/relay-path.js";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The base URLs of pi's providers for this launch: its models.json entries and a built-in provider's own address. */
function piBaseUrls(ctx: EngineContext, execution: LaunchExecution): string[] {
  if (execution.model === SCRIPTED_MODEL) return []; // Docket's scripted model answers in-process
  const urls: string[] = [];
  const agentDir = ctx.env.PI_CODING_AGENT_DIR ? resolve(ctx.env.PI_CODING_AGENT_DIR) : join(homedir(), ".pi", "agent");
  const read = readJsonFile(join(agentDir, "models.json"));
  const providers = read.ok === true ? (read.value as { providers?: unknown }).providers : undefined;
  if (typeof providers === "object" && providers !== null)
    for (const p of Object.values(providers as Record<string, unknown>)) {
      const url = (p as { baseUrl?: unknown } | null)?.baseUrl;
      if (typeof url === "string") urls.push(url);
    }
  const provider = execution.model?.split("/")[0];
  const builtIn = provider === undefined ? undefined : PI_PROVIDER_URLS[provider];
  if (builtIn) urls.push(builtIn);
  return urls;
}

/** The destinations one launch may reach: its agent's model API and the user's `sandbox.allow`. */
function launchAllow(
  ctx: EngineContext,
  execution: LaunchExecution,
  env: Readonly<Record<string, string>>,
): AllowPattern[] {
  return launchAllowList(agentNeeds(ctx, execution, env), ctx.config().sandbox.allow);
}

function agentNeeds(ctx: EngineContext, execution: LaunchExecution, env: Readonly<Record<string, string>>): AgentNeeds {
  return {
    agent: execution.agent,
    env,
    codexArgs: execution.agentArgs ?? [],
    ...(AGENT_TRAITS[execution.agent].modelApi === "pi-providers" ? { piBaseUrls: piBaseUrls(ctx, execution) } : {}),
  };
}

/** Writes what the door's proxy checks this generation's requests against (replaced at each contained launch). */
function writeEgressPolicy(ctx: EngineContext, worker: string, generation: number, net: LaunchNetwork): void {
  const file: EgressPolicyFile = { generation, mode: net.mode, allow: net.allow.map(patternText) };
  writeFileAtomic(workerPath(ctx.home, worker, WORKER_FILES.egress), `${JSON.stringify(file)}\n`);
}

/**
 * Adds the proxy's tallies in one command (the door calls it on its own timer, not per request); the first refusal of
 * a host for a worker adds one attention line naming the host and how to allow it.
 */
export function recordEgress(ctx: EngineContext, tallies: readonly EgressTally[]): void {
  if (tallies.length === 0) return;
  ctx.commands.run("worker.egress", { tallies: tallies.length }, (tx) => {
    for (const t of tallies) {
      if (!addEgressTally(tx, t)) continue;
      insertNotification(tx, {
        kind: "egress-refused",
        worker: t.worker,
        body: `${t.worker} tried to reach ${t.host}:${t.port}, which is not on its network allow list; refused. To allow it, add "${t.host}" to sandbox.allow in your user config and respawn the worker`,
      });
    }
  });
}

/** A contained launch's network: the config's (user, DOCKET_NETWORK, project), narrowed by its kind's `network`. */
export function launchNetworkMode(ctx: EngineContext, execution: Pick<LaunchExecution, "kind">): NetworkMode {
  const kind = kindRegistry(ctx).kinds.get(execution.kind);
  return narrowNetwork(ctx.config().sandbox.network, kind?.network ?? "open");
}

/** The door's egress socket of this home. */
export function egressSocketPath(ctx: EngineContext): string {
  return join(doorPaths(ctx.home.root).dir, EGRESS_SOCKET);
}

/** Where a launch's relay runs: its node, the relay script and the socket that reaches the door's proxy, there. */
export interface RelayPlace {
  node: string;
  relay: string;
  socket: string;
}

/** The relay of a launch on this machine: this node, this install's script, the door's own socket. */
export function localRelay(ctx: EngineContext): RelayPlace {
  return { node: process.execPath, relay: relayScriptPath(), socket: egressSocketPath(ctx) };
}

/**
 * A contained launch's network: records its mode and allow list for the door and the card; with `allow`, points the
 * agent's proxy variables at the relay and returns the relay's argv prefix (empty otherwise).
 */
export function prepareLaunchNetwork(
  ctx: EngineContext,
  who: { worker: string; generation: number },
  execution: LaunchExecution,
  env: Record<string, string>,
  at: RelayPlace,
): string[] {
  const mode = launchNetworkMode(ctx, execution);
  writeEgressPolicy(ctx, who.worker, who.generation, { mode, allow: [] }); // what its card says if it cannot start
  if (mode === "none") {
    const api = launchAllowList(agentNeeds(ctx, execution, env), []);
    if (api.length > 0)
      throw refusal(
        "network-none-model-api",
        `${who.worker} cannot start: ${execution.agent} needs its model API at ${api.map(patternText).join(", ")}, and sandbox.network is "none" (no network at all)`,
        'set sandbox.network to "allow" in your user config (only the model API and sandbox.allow are reachable), or give this worker an agent that needs no network',
      );
  }
  const allow = mode === "allow" ? launchAllow(ctx, execution, env) : [];
  writeEgressPolicy(ctx, who.worker, who.generation, { mode, allow });
  if (mode !== "allow") return [];
  Object.assign(env, egressEnv());
  return relayArgv(at);
}
