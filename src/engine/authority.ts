// The guard every human use-case calls first: a process that carries a worker identity judges nothing, and neither does
// one the pi session's model started through its tools (docs/decisions/authority.md). CLI, pi, web and MCP share it.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { PARENT_AGENT_VAR, PARENT_HELPER_VAR, workerIdentityIn, type HumanVerb } from "../domain/authority.js";
import { refusal, type DocketError } from "../domain/errors.js";
import { PARENT_TOOLS_NOTE } from "../domain/parent-tools.js";
import { readParentSession } from "../files/parent-sessions.js";
import { pathExists } from "../files/probe.js";
import { ancestorsOf, ownPid, processStartTime } from "../substrate/process-ancestry.js";
import type { EngineContext } from "./context.js";
import { isParentSessionProcess } from "./parent-session.js";

type AuthorityContext = Pick<EngineContext, "env"> & { home?: { root: string } };

/** The refusal this process gets for a human verb, or undefined: it is the human's. */
export function humanRefusal(ctx: AuthorityContext, verb: HumanVerb): DocketError | undefined {
  const found = workerIdentityIn(ctx.env);
  if (found.length > 0) {
    return refusal(
      "worker-cannot-judge",
      `${verb} is the human's: this process carries a worker identity (${found.join(", ")}); nothing was changed`,
      "a worker speaks only through its protocol calls (docket_todos, docket_wait, docket_done, docket_fail, docket_consult, docket_note, or the CLI's worker subcommands); ask the human",
    );
  }
  const agent = parentAgentOf(ctx);
  if (agent) {
    return refusal(
      "parent-agent-cannot-judge",
      `${verb} is the human's: this process was started by the pi session's own tools (${agent}), so it acts for your pi session's model, not for you; nothing was changed`,
      "type the command yourself: in pi's editor (the /docket command) or in a terminal of your own; the model may only suggest it",
    );
  }
  return undefined;
}

export function assertHuman(ctx: AuthorityContext, verb: HumanVerb): void {
  const refused = humanRefusal(ctx, verb);
  if (refused) throw refused;
}

/**
 * Why this process is the parent agent's, or undefined. The pi process itself knows it is one (in memory, never from its
 * environment, which a tool's child may write). In the session's bubblewrap box the home holds only the note
 * the box puts there; uncontained, the variable the pi parent sets marks its tools' children and the ancestry walk (a
 * live pi parent registered in this home above us) catches one that unset it. A helper holding the session's secret is
 * the human's.
 */
export function parentAgentOf(ctx: AuthorityContext): string | undefined {
  if (isParentSessionProcess()) return undefined;
  if (ctx.home && pathExists(join(ctx.home.root, PARENT_TOOLS_NOTE)))
    return "it runs in the pi session's tool box, where Docket's home is out of reach";
  const self = ownPid();
  const marked = ctx.env[PARENT_AGENT_VAR] ?? "";
  const helper = ctx.env[PARENT_HELPER_VAR] ?? "";
  if (marked !== "" && helper === "") return `${PARENT_AGENT_VAR}=${marked} in its environment`;
  if (!ctx.home) return undefined;
  for (const pid of ancestorsOf(self)) {
    const session = readParentSession(ctx.home.root, pid);
    if (!session || session.startTime !== processStartTime(pid)) continue;
    if (helper !== "" && createHash("sha256").update(helper).digest("hex") === session.helperSha256) return undefined;
    return `a descendant of your pi session, pid ${pid}`;
  }
  return marked !== "" ? `${PARENT_AGENT_VAR}=${marked} in its environment` : undefined;
}
