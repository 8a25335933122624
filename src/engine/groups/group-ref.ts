// Reading one group for a verb: its id checked, its row found (or a not-found refusal naming how to list groups).
// Every group verb (compare, the page, pi's overlay) reads its group through here, so each refuses the same way.

import { notFound } from "../../domain/errors.js";
import { parseGroupId } from "../../domain/groups/group-ids.js";
import type { Db } from "../../ledger/core/open.js";
import { getGroup, type WorkerGroup } from "../../ledger/groups/groups.js";

export function requireGroup(db: Db, text: string): WorkerGroup {
  const id = parseGroupId(text);
  const g = getGroup(db, id);
  if (!g)
    throw notFound("unknown-group", `there is no group ${id}`, "`docket ls` lists groups beside their candidates");
  return g;
}
