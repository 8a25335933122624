// The guardrails a worker's system prompt carries: the universal text plus its kind's appendix (never replaced).

import { renderWorkerGuardrails } from "../../domain/workers/guardrails.js";
import { requireWorker } from "../../ledger/workers/workers.js";
import type { EngineContext } from "../context.js";
import { kindRegistry } from "./kinds.js";

export function workerGuardrails(ctx: EngineContext, worker: string): string {
  const row = requireWorker(ctx.db, worker);
  const kinds = kindRegistry(ctx).kinds;
  const kind = kinds.get(row.kind) ?? kinds.get("default");
  if (!kind) throw new Error(`no kind ${row.kind} and no default kind to take guardrails from`);
  return renderWorkerGuardrails(kind);
}
