// Reading combined versions (`combined:w2+w3:<N>`): one resolved from its frozen sidecar and its ledger row, a pair's
// newest, and those waiting for judgment. Judged, promoted and shown as a Reviewable (reviewable-combined.ts).

import type { CombinedDeliverable } from "../../domain/deliverables/combined.js";
import {
  combinedId,
  combinedRef,
  combinedVersionRef,
  parseCombinedRef,
  type CombinedVersionRef,
} from "../../domain/deliverables/refs.js";
import type { DeliverablePointer } from "../../domain/deliverables/deliverable.js";
import { notFound, refusal } from "../../domain/errors.js";
import { verifyContent } from "../../domain/review/content-binding.js";
import { listCombinedVersions, readCombined } from "../../files/review/combined-files.js";
import { readDeliverable } from "../../files/workers/deliverables.js";
import { combinationOf, frozenCombinations, type CombinationRow } from "../../ledger/review/combinations.js";
import type { EngineContext } from "../context.js";
import { judgmentOf } from "./target.js";

export interface CombinedTarget {
  key: string;
  pointer: DeliverablePointer;
  deliverable: CombinedDeliverable;
  path: string;
  sha256: string;
  row: CombinationRow;
}

/** `combined:w2+w3:1`, or `combined:w2+w3` for the pair's newest recorded version (parsed by whoever took the text). */
export function resolveCombined(ctx: EngineContext, parsed: CombinedVersionRef, expectSha256?: string): CombinedTarget {
  const versions = listCombinedVersions(ctx.home, parsed.key);
  const version = parsed.version ?? newestCombined(ctx, parsed.key)?.version;
  if (version === undefined || !versions.includes(version))
    throw notFound(
      "no-such-version",
      `${parsed.key} has no combined version${parsed.version ? ` ${parsed.version}` : ""}`,
      "`docket verdict` lists what waits for review",
    );
  const read = readCombined(ctx.home, parsed.key, version);
  if (!read.ok)
    throw refusal(
      "deliverable-invalid",
      `combined version ${parsed.key}:${version} is missing or invalid (${read.reason}); restore it or combine again`,
    );
  const row = combinationOf(ctx.db, read.deliverable.ref);
  if (!row)
    throw refusal(
      "combined-unrecorded",
      `${read.deliverable.ref} was frozen but never recorded (an interrupted combine); nothing changed`,
      "run the same `docket combine <w> <w>` again to record it",
    );
  if (expectSha256 !== undefined)
    verifyContent({ ref: read.deliverable.ref, file: read.path, expected: expectSha256, actual: read.sha256 });
  return {
    key: parsed.key,
    pointer: { id: read.deliverable.id, version, ref: read.deliverable.ref },
    deliverable: read.deliverable,
    path: read.path,
    sha256: read.sha256,
    row,
  };
}

/** The pair's newest recorded combined version, or null (from the ledger and the file names; no sidecar parsed). */
export function newestCombined(ctx: EngineContext, key: string): DeliverablePointer | null {
  const version = [...listCombinedVersions(ctx.home, key)]
    .reverse()
    .find((v) => combinationOf(ctx.db, combinedRef(key, v)));
  return version === undefined ? null : { id: combinedId(key), version, ref: combinedRef(key, version) };
}

/** The frozen patches of a combined version's sources, as their sidecars hold them ("" for one that cannot be read). */
export function sourcePatches(ctx: EngineContext, d: CombinedDeliverable): string[] {
  return d.sources.map((s) => {
    const read = readDeliverable(ctx.home, s.worker, s.version);
    return read.ok ? (read.deliverable.changeSet?.patch ?? "") : "";
  });
}

/** This project's combined versions nobody judged yet (the verdict queue shows them with the ready ones). */
export function unjudgedCombined(ctx: EngineContext): CombinedVersionRef[] {
  const refs = frozenCombinations(ctx.db, ctx.projectRoot()).flatMap((c) => (c.resultRef ? [c.resultRef] : []));
  // Judged or not is the one rule's answer (domain/review/approval.ts), not a list of verbs restated here.
  return refs.flatMap((ref) => {
    const c = parseCombinedRef(ref);
    if (c?.version === undefined || judgmentOf(ctx.db, { id: combinedId(c.key), version: c.version, ref })) return [];
    return [combinedVersionRef(c.key, c.version)];
  });
}
