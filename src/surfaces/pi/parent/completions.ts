// `/docket …` argument completion in pi's editor: verbs, a group's subcommands, then workers and their refs.
// Completion is a convenience: a ledger that cannot be read offers nothing, and a word typed out offers nothing.

import { cardVerbsCompleting } from "../../../domain/review/card-actions.js";
import { versionRefOf } from "../../../domain/deliverables/refs.js";
import { visibleText } from "../../../domain/text/visible-text.js";
import type { DockRow } from "../../../engine/talk/parent-feed.js";
import { listVerbs } from "../../shared/verbs/run.js";

/** Verbs whose first argument is a worker (w<N>); those marked in REF_VERBS also take a deliverable ref. Card verbs:
 * card-actions.ts. */
const WORKER_VERBS = new Set<string>([
  ...["show", "peek", "attach", "verdict", "delete", "report", "diff", "dispatch"],
  ...cardVerbsCompleting("worker"),
]);
const REF_VERBS = new Set<string>(["verdict", "report", "diff", ...cardVerbsCompleting("ref")]);
/** Verbs that take only an exact ref (`choose` refuses a bare worker id). */
const EXACT_REF_VERBS = new Set<string>(["choose"]);
let verbsCache: ReturnType<typeof listVerbs> | undefined;

export interface CompletionItem {
  value: string;
  label: string;
  description?: string;
}

/**
 * Completes `/docket …` arguments: verbs, a group's subcommands, then workers (and their current deliverable
 * refs for review verbs). The returned value replaces the whole argument text, as pi's editor applies it.
 */
export function completeDocket(prefix: string, rows: () => readonly DockRow[]): CompletionItem[] | null {
  const parts = prefix.trimStart().split(/\s+/);
  const fleet = { name: "fleet", description: "the fleet dashboard (also its key, F8 by default)", subcommands: [] };
  const verbs = (verbsCache ??= [...listVerbs(), fleet]);
  if (parts.length <= 1) {
    const p = parts[0] ?? "";
    return offer(
      verbs.map((v) => ({ value: v.name, label: v.name, description: v.description })),
      p,
    );
  }
  const [verb, ...rest] = parts;
  const last = rest[rest.length - 1] ?? "";
  const head = parts.slice(0, -1).join(" ");
  const sub = verbs.find((v) => v.name === verb)?.subcommands ?? [];
  if (rest.length === 1 && sub.length > 0) {
    return offer(
      sub.map((s) => ({ value: `${head} ${s}`, label: s })),
      last,
    );
  }
  const exactOnly = EXACT_REF_VERBS.has(verb!);
  if (rest.length !== 1 || !(WORKER_VERBS.has(verb!) || exactOnly)) return null;
  let workers: readonly DockRow[];
  try {
    workers = rows();
  } catch {
    return null; // completion is a convenience; a ledger that cannot be read just offers nothing
  }
  const candidates = workers.flatMap((r) =>
    [
      ...(exactOnly ? [] : [r.worker]),
      ...((REF_VERBS.has(verb!) || exactOnly) && r.version !== null ? [versionRefOf(r.worker, r.version)] : []),
    ].map((c) => ({
      value: `${head} ${c}`,
      label: c,
      description: visibleText(`${r.state.replace("_", " ")} · ${r.task}`),
    })),
  );
  return offer(candidates, last);
}

/**
 * The candidates whose label starts with what was typed; none once the word is typed out exactly, because pi's
 * editor spends Enter on an open completion list, and `/docket ls⏎` must run rather than complete to itself.
 */
function offer(candidates: CompletionItem[], typed: string): CompletionItem[] | null {
  if (typed !== "" && candidates.some((c) => c.label === typed)) return null;
  const found = candidates.filter((c) => c.label.startsWith(typed));
  return found.length > 0 ? found : null;
}
