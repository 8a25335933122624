// The guard every human use-case calls first: a process that carries a worker identity judges nothing (DESIGN §8a).
// It reads the engine context's environment, so the CLI, the pi parent, the web page and MCP all get the same rule.

import { workerIdentityIn, type HumanVerb } from "../domain/authority.js";
import { refusal } from "../domain/errors.js";
import type { EngineContext } from "./context.js";

export function assertHuman(ctx: Pick<EngineContext, "env">, verb: HumanVerb): void {
  const found = workerIdentityIn(ctx.env);
  if (found.length === 0) return;
  throw refusal(
    "worker-cannot-judge",
    `${verb} is the human's: this process carries a worker identity (${found.join(", ")}); nothing was changed`,
    "a worker speaks only through its protocol calls (docket_todos, docket_wait, docket_done, docket_fail, docket_consult, docket_note, or the CLI's worker subcommands); ask the human",
  );
}
