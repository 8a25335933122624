// The candidates of one best-of-N spawn: N specs on the same brief, each list (agents, models, steps files) cycled
// over the N in order. `-` in a list leaves that candidate's value unset (its agent's or the config's default).

import { usageError } from "../errors.js";

/** The most candidates one group may hold: each is a whole worker with its own worktree and agent process. */
export const MAX_CANDIDATES = 10;

export interface CandidateLists {
  count: number;
  agents?: readonly string[];
  models?: readonly string[];
  scripted?: readonly string[];
}

export interface CandidateSpec {
  /** 1-based, in spawn order. */
  position: number;
  agent?: string;
  model?: string;
  scripted?: string;
}

/** Splits a comma list flag (`a,b,-`) into its entries; an empty entry is refused (say `-` for "unset"). */
export function parseCandidateList(flag: string, text: string): string[] {
  const entries = text.split(",").map((e) => e.trim());
  const empty = entries.indexOf("");
  if (empty >= 0)
    throw usageError(
      "bad-flag",
      `${flag} has an empty entry at position ${empty + 1} in "${text}"`,
      "separate values with commas; write - to leave one candidate's value unset",
    );
  return entries;
}

/** N specs; a list longer than N is refused (its extra entries would never run). */
export function resolveCandidateSpecs(lists: CandidateLists): CandidateSpec[] {
  const { count } = lists;
  if (!Number.isInteger(count) || count < 2 || count > MAX_CANDIDATES)
    throw usageError(
      "bad-flag",
      `--best-of takes a whole number of candidates from 2 to ${MAX_CANDIDATES}; got ${count}`,
      "one candidate is a plain `docket spawn <task>`",
    );
  const named: [string, readonly string[] | undefined][] = [
    ["--agent", lists.agents],
    ["--model", lists.models],
    ["--scripted", lists.scripted],
  ];
  for (const [flag, list] of named) {
    if (list && list.length > count)
      throw usageError(
        "bad-flag",
        `${flag} lists ${list.length} values for ${count} candidates; the extra ones would never run`,
        `give at most ${count}, or raise --best-of`,
      );
  }
  const pick = (list: readonly string[] | undefined, i: number): string | undefined => {
    if (!list || list.length === 0) return undefined;
    const v = list[i % list.length]!;
    return v === "-" ? undefined : v;
  };
  return Array.from({ length: count }, (_, i) => {
    const agent = pick(lists.agents, i);
    const model = pick(lists.models, i);
    const scripted = pick(lists.scripted, i);
    return {
      position: i + 1,
      ...(agent !== undefined ? { agent } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(scripted !== undefined ? { scripted } : {}),
    };
  });
}
