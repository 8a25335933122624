// The guard every human use-case calls first: a process that carries a worker identity judges nothing, and neither does
// one the pi session's model started through its tools (DESIGN §8a, issue 23 break 10). CLI, pi, web and MCP share it.

import { createHash } from "node:crypto";
import { PARENT_AGENT_VAR, PARENT_HELPER_VAR, workerIdentityIn, type HumanVerb } from "../domain/authority.js";
import { refusal, type DocketError } from "../domain/errors.js";
import { readParentSession } from "../files/parent-sessions.js";
import { ancestorsOf, ownPid, processStartTime } from "../substrate/process-ancestry.js";
import type { EngineContext } from "./context.js";

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
 * Why this process is the parent agent's, or undefined. The variable the pi parent sets marks its tools' children; the
 * ancestry walk (a live pi parent registered in this home above us) catches one that unset it. The pi process itself
 * and a helper holding the session's secret are the human's.
 */
export function parentAgentOf(ctx: AuthorityContext): string | undefined {
  const self = ownPid();
  const marked = ctx.env[PARENT_AGENT_VAR] ?? "";
  if (marked === String(self)) return undefined;
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
