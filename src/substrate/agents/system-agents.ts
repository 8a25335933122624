// The agents on this machine behind the launcher port (port.ts): pi's CLI and models, Claude Code and Codex found and
// prepared. Loaded by the port on its first call.

import { claudeArgv, prepareClaude } from "./claude.js";
import { codexArgv, isCodexMainThread, prepareCodex } from "./codex.js";
import { locateClaude, locateCodex } from "./locate.js";
import { listModels, piDefaults, resolvePiAgentDir, resolvePiCli, resolvePiExtraArgs } from "./pi.js";
import type { Agents } from "./port.js";
import { blockedLine } from "./signatures.js";

export const realAgents: Agents = {
  piCli: resolvePiCli,
  piExtraArgs: resolvePiExtraArgs,
  listModels,
  piDefaults: (env, home) => piDefaults(resolvePiAgentDir(env, home)),
  locate: (agent, pathValue) => (agent === "claude" ? locateClaude(pathValue) : locateCodex(pathValue)),
  prepare: (agent, spec, located) => (agent === "claude" ? prepareClaude(spec, located) : prepareCodex(spec, located)),
  argv: (agent, spec, located) => (agent === "claude" ? claudeArgv(spec, located) : codexArgv(spec, located)),
  isCodexMainThread,
  blockedLine,
};
