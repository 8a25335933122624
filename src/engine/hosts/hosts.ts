// `docket hosts add|ls|rm|check`: the machines workers may run on, kept in the user's own config.
// check says whether the host answers and which of git, tmux, node (and the agent) are there, with what to install.

import { isAbsolute } from "node:path";
import {
  DEFAULT_HOST_DIR,
  destinationProblem,
  hostDirProblem,
  isHostName,
  type HostEntry,
} from "../../domain/hosts.js";
import { AGENT_TRAITS, isWorkerAgent } from "../../domain/agents/traits.js";
import { usageError } from "../../domain/errors.js";
import { updateUserConfigFile } from "../../files/user-config-file.js";
import { ensureMaster } from "../../substrate/ssh/connection.js";
import { checkRemoteTools } from "../../substrate/ssh/host.js";
import { probeHostSandbox } from "../../substrate/ssh/host-sandbox.js";
import { assertHuman } from "../authority.js";
import type { EngineContext } from "../context.js";
import { hostEntry, sshTargetOf } from "./connect.js";

export interface AddHostInput {
  name: string;
  destination: string;
  dir?: string;
  sshConfig?: string;
  docketBin?: string;
}

export function addHost(ctx: EngineContext, input: AddHostInput): HostEntry {
  assertHuman(ctx, "hosts add"); // a worker never chooses where code runs
  if (!isHostName(input.name))
    throw usageError(
      "bad-host-name",
      `host name ${JSON.stringify(input.name)} must be a plain word (letters, digits, . _ -)`,
    );
  const bad = destinationProblem(input.destination);
  if (bad)
    throw usageError("bad-destination", `ssh destination ${JSON.stringify(input.destination)} is refused: ${bad}`);
  const dir = input.dir ?? DEFAULT_HOST_DIR;
  const badDir = hostDirProblem(dir);
  if (badDir) throw usageError("bad-host-dir", `--dir ${JSON.stringify(dir)} is refused: ${badDir}`);
  for (const [flag, path] of [
    ["--ssh-config", input.sshConfig],
    ["--docket", input.docketBin],
  ] as const) {
    if (path !== undefined && !isAbsolute(path))
      throw usageError("bad-flag", `${flag} must be an absolute path; got ${JSON.stringify(path)}`);
  }
  const entry: HostEntry = {
    name: input.name,
    destination: input.destination,
    dir,
    ...(input.sshConfig ? { sshConfig: input.sshConfig } : {}),
    ...(input.docketBin ? { docketBin: input.docketBin } : {}),
  };
  updateUserConfigFile(ctx.home.config, (raw) => {
    const hosts =
      typeof raw.hosts === "object" && raw.hosts !== null && !Array.isArray(raw.hosts)
        ? (raw.hosts as Record<string, unknown>)
        : {};
    const { name, ...stored } = entry;
    return { ...raw, hosts: { ...hosts, [name]: stored } };
  });
  return entry;
}

export function listHosts(ctx: EngineContext): HostEntry[] {
  return Object.values(ctx.config().hosts).sort((a, b) => a.name.localeCompare(b.name));
}

export function removeHost(ctx: EngineContext, name: string): { removed: string } {
  assertHuman(ctx, "hosts rm");
  hostEntry(ctx, name);
  updateUserConfigFile(ctx.home.config, (raw) => {
    const hosts = { ...(raw.hosts as Record<string, unknown>) };
    delete hosts[name];
    return { ...raw, hosts };
  });
  return { removed: name };
}

export interface HostCheck {
  host: string;
  reachable: boolean;
  /** Why it could not be reached (ssh's own words). */
  error?: string;
  tools: { tool: string; version: string | null; install?: string }[];
  missing: string[];
  /** Whether workers there run in the host's bubblewrap (with its path), or why not and what to do. */
  sandbox?: { contained: true; bwrap: string } | { contained: false; reason: string; fix: string };
}

const INSTALL: Record<string, string> = {
  git: "install git (apt-get install git / brew install git)",
  tmux: "install tmux (apt-get install tmux / brew install tmux)",
  node: "install Node.js 22 or 24 (nodejs.org, or your package manager), and Docket itself at the same path as here or given with --docket",
  ...Object.fromEntries(
    Object.values(AGENT_TRAITS).flatMap((t) => (t.program ? [[t.program.name, t.program.install]] : [])),
  ),
};

/** The program `--agent` names: an agent's CLI (none for a command), or any other name as given. */
function agentProgram(agent: string | undefined): string | undefined {
  if (!agent) return undefined;
  return isWorkerAgent(agent) ? AGENT_TRAITS[agent].program?.name : agent;
}

/**
 * Reachable, which tools a worker there needs are present (git, tmux, node, and `agent` when given), and whether its
 * bubblewrap can contain workers there.
 */
export function checkHost(ctx: EngineContext, name: string, options: { agent?: string } = {}): HostCheck {
  const entry = hostEntry(ctx, name);
  const target = sshTargetOf(ctx, entry);
  const program = agentProgram(options.agent);
  const wanted = ["git", "tmux", "node", ...(program ? [program] : [])];
  try {
    ensureMaster(target);
    const tools = checkRemoteTools({ target }, wanted).map((t) =>
      t.version === null ? { ...t, install: INSTALL[t.tool] ?? `install ${t.tool}` } : t,
    );
    const { support } = probeHostSandbox(target);
    const sandbox = support.ok
      ? { contained: true as const, bwrap: support.bwrap }
      : { contained: false as const, reason: support.reason, fix: support.fix };
    const missing = tools.filter((t) => t.version === null).map((t) => t.tool);
    return { host: name, reachable: true, tools, missing, sandbox };
  } catch (error) {
    if ((error as { code?: string }).code !== "host-unreachable") throw error;
    return { host: name, reachable: false, error: (error as Error).message, tools: [], missing: [] };
  }
}
