// The doctor's checks of the tools Docket drives: tmux and git on PATH at workable versions, and the pi CLI it ships with.
// Each missing or old tool is a finding that says what to install; nothing here changes anything.

import { pathExists } from "../../files/probe.js";
import { resolvePiCli } from "../../substrate/agents/pi.js";
import { isAtLeast, toolVersion, type OutsideTool } from "../../substrate/tool-versions.js";
import { ok, problem, type Finding } from "./findings.js";
import { SUPPORTED_NODE, isSupportedNode } from "../../domain/node-abi.js";

/** The oldest versions whose features Docket uses (tmux `new-window -e`, git worktrees with `--detach`). */
export const MIN_VERSIONS: Record<OutsideTool, string> = { tmux: "3.0", git: "2.25" };

const INSTALL: Record<OutsideTool, string> = {
  tmux: "install tmux (apt-get install -y tmux, brew install tmux); workers run in its windows",
  git: "install git (apt-get install -y git, brew install git); workspaces and promotion use it",
};

export function checkTool(tool: OutsideTool): Finding {
  const version = toolVersion(tool);
  if (version === undefined) return problem(tool, `${tool} is not on PATH`, INSTALL[tool]);
  if (!isAtLeast(version, MIN_VERSIONS[tool])) {
    return {
      check: tool,
      severity: "warning",
      message: `${tool} ${version} is older than ${MIN_VERSIONS[tool]}, the oldest Docket is tested with`,
      fix: `upgrade: ${INSTALL[tool]}`,
    };
  }
  return ok(tool, `${tool} ${version}`);
}

export function checkPi(): Finding {
  let cli: string;
  try {
    cli = resolvePiCli();
  } catch (error) {
    return problem("pi", (error as Error).message, "reinstall Docket's dependencies (npm ci); pi workers need its CLI");
  }
  if (!pathExists(cli))
    return problem("pi", `the pi CLI ${cli} is missing`, "reinstall Docket's dependencies (npm ci)");
  return ok("pi", cli);
}

/** The Node.js running Docket: one outside SUPPORTED_NODE (Node 20, say) is a warning with the way out. */
export function checkNode(running: { version: string; modules: string; execPath: string }): Finding {
  const what = `Node ${running.version} (NODE_MODULE_VERSION ${running.modules}, ${running.execPath})`;
  if (isSupportedNode(running.version)) return ok("node", what);
  return {
    check: "node",
    severity: "warning",
    message: `${what} is not supported: Docket runs under Node ${SUPPORTED_NODE}`,
    fix: "run Docket under Node 22.12+ or 24 (put that node first on PATH); its better-sqlite3 must be built for that Node",
  };
}
