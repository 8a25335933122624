// A worker's network as `show` and the card read it: its launch's mode and allow list (fleet/<id>/egress.json) and
// what its proxy recorded. Kept apart from the launch side (egress.ts) so a card loads only this.

import {
  isNetworkMode,
  parseAllowPattern,
  patternText,
  type AllowPattern,
  type NetworkMode,
} from "../../domain/network-policy.js";
import type { EgressDestination, NetworkSummary } from "../../domain/workers/network-summary.js";
import { WORKER_FILES, readWorkerText } from "../../files/workers/worker-files.js";
import { listEgress } from "../../ledger/workers/egress.js";
import type { EngineContext } from "../context.js";

/** What the door's proxy reads for one worker: the generation it applies to and the destinations allowed. */
export interface EgressPolicyFile {
  generation: number;
  mode: NetworkMode;
  allow: string[];
}

/** One contained launch's network: its mode and (for `allow`) the destinations its proxy lets through. */
export interface LaunchNetwork {
  mode: NetworkMode;
  allow: AllowPattern[];
}

/** The launch's network; undefined (everything refused) when the file is missing, damaged or for another generation. */
export function readEgressPolicy(ctx: EngineContext, worker: string, generation: number): LaunchNetwork | undefined {
  const text = readWorkerText(ctx.home, worker, WORKER_FILES.egress);
  if (text === undefined) return undefined;
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof file !== "object" || file === null) return undefined;
  const { generation: gen, mode, allow } = file as Record<string, unknown>;
  if (gen !== generation || !isNetworkMode(mode) || !Array.isArray(allow)) return undefined;
  const patterns = allow.map((p) => parseAllowPattern(String(p))).filter((p): p is AllowPattern => p !== undefined);
  return { mode, allow: patterns };
}

/** A worker's network as `show` and the card tell it. */
export function networkSummary(
  ctx: EngineContext,
  worker: { id: string; generation: number; contained: boolean },
): NetworkSummary {
  const destinations = listEgress(ctx.db, worker.id);
  const sum = (f: (d: EgressDestination) => number) => destinations.reduce((n, d) => n + f(d), 0);
  const launch = worker.contained ? readEgressPolicy(ctx, worker.id, worker.generation) : undefined;
  return {
    mode: launch?.mode ?? null,
    allowed: launch?.mode === "allow" ? launch.allow.map(patternText) : [],
    requests: sum((d) => d.requests),
    refused: sum((d) => (d.allowed ? 0 : d.requests)),
    bytesUp: sum((d) => d.bytesUp),
    bytesDown: sum((d) => d.bytesDown),
    destinations,
  };
}
