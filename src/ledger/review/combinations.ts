// Combine operations in SQL: one row per combine, `resolving` while the human edits the contested files (at most one
// per project), then `frozen` (pointing at the combined version) or `aborted`. Rows change only inside their commands.

import { jsonColumn } from "../core/json-columns.js";
import { formatId } from "../../domain/ids.js";
import type { CombinedSource } from "../../domain/deliverables/combined.js";
import type { Db } from "../core/open.js";
import type { Tx } from "../core/runner.js";
import { statement } from "../core/statements.js";

/** What a resolving combine recorded about its merge: the merged tree and the contested files with their kind. */
export interface RecordedMerge {
  tree: string;
  contested: { path: string; kind: string }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const asCombinedSources = (v: unknown): CombinedSource[] | undefined =>
  Array.isArray(v) &&
  v.every(
    (s: unknown) =>
      isRecord(s) &&
      typeof s.worker === "string" &&
      typeof s.ref === "string" &&
      typeof s.version === "number" &&
      typeof s.sha256 === "string" &&
      typeof s.task === "string",
  )
    ? (v as CombinedSource[])
    : undefined;

const asRecordedMerge = (v: unknown): RecordedMerge | undefined =>
  isRecord(v) &&
  typeof v.tree === "string" &&
  Array.isArray(v.contested) &&
  v.contested.every((c: unknown) => isRecord(c) && typeof c.path === "string" && typeof c.kind === "string")
    ? (v as unknown as RecordedMerge)
    : undefined;

export interface CombinationRow {
  id: string;
  projectRoot: string;
  key: string;
  sources: CombinedSource[];
  base: string;
  state: "resolving" | "frozen" | "aborted";
  merge: RecordedMerge;
  scratch: string | null;
  resultRef: string | null;
  createdAt: string;
}

interface Row {
  id: string;
  project_root: string;
  key: string;
  sources: string;
  base: string;
  state: CombinationRow["state"];
  contested: string;
  scratch: string | null;
  result_ref: string | null;
  created_at: string;
}

const fromRow = (r: Row): CombinationRow => ({
  id: r.id,
  projectRoot: r.project_root,
  key: r.key,
  sources: jsonColumn(r.sources, asCombinedSources, { table: "combinations", column: "sources", id: r.id }),
  base: r.base,
  state: r.state,
  merge: jsonColumn(r.contested, asRecordedMerge, { table: "combinations", column: "contested", id: r.id }),
  scratch: r.scratch,
  resultRef: r.result_ref,
  createdAt: r.created_at,
});

export function insertCombination(
  tx: Tx,
  c: {
    projectRoot: string;
    key: string;
    sources: readonly CombinedSource[];
    base: string;
    state: "resolving" | "frozen";
    merge: RecordedMerge;
    scratch?: string;
    resultRef?: string;
  },
): string {
  const seq = tx.next("combination");
  const id = formatId("combination", seq);
  statement(
    tx.db,
    `INSERT INTO combinations (id, seq, project_root, key, sources, base, state, contested, scratch, result_ref, created_at, settled_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    seq,
    c.projectRoot,
    c.key,
    JSON.stringify(c.sources),
    c.base,
    c.state,
    JSON.stringify(c.merge),
    c.scratch ?? null,
    c.resultRef ?? null,
    tx.now,
    c.state === "frozen" ? tx.now : null,
  );
  return id;
}

/** Settles a resolving combine; false when it was not resolving any more (another process settled it). */
export function settleCombination(
  tx: Tx,
  id: string,
  to: { state: "frozen"; resultRef: string } | { state: "aborted" },
): boolean {
  return (
    statement(
      tx.db,
      "UPDATE combinations SET state = ?, result_ref = ?, settled_at = ? WHERE id = ? AND state = 'resolving'",
    ).run(to.state, to.state === "frozen" ? to.resultRef : null, tx.now, id).changes > 0
  );
}

/** The combine of this project waiting for the human's resolution, if any. */
export function resolvingCombination(db: Db, projectRoot: string): CombinationRow | undefined {
  const r = statement(db, "SELECT * FROM combinations WHERE project_root = ? AND state = 'resolving'").get(
    projectRoot,
  ) as Row | undefined;
  return r && fromRow(r);
}

/** The combine that froze `ref`. */
export function combinationOf(db: Db, ref: string): CombinationRow | undefined {
  const r = statement(db, "SELECT * FROM combinations WHERE result_ref = ? AND state = 'frozen'").get(ref) as
    | Row
    | undefined;
  return r && fromRow(r);
}

/** Combined versions of this project, oldest first. */
export function frozenCombinations(db: Db, projectRoot: string): CombinationRow[] {
  return (
    statement(db, "SELECT * FROM combinations WHERE project_root = ? AND state = 'frozen' ORDER BY seq").all(
      projectRoot,
    ) as Row[]
  ).map(fromRow);
}

/** Scratch folders still in use, in any project (a folder no row points at is a crash's leftover). */
export function scratchInUse(db: Db): Set<string> {
  return new Set(
    (
      statement(db, "SELECT scratch FROM combinations WHERE state = 'resolving' AND scratch IS NOT NULL").all() as {
        scratch: string;
      }[]
    ).map((r) => r.scratch),
  );
}
