// Which `/docket` lines open a focused view in pi's TUI instead of printing: `verdict [w|ref]`, `diff <w|ref>`,
// `compare b<N>` and `fleet`, with `--version N` where the CLI takes it. Anything else (`--json`, `--help`, a typo) runs the CLI verb.

import { deliverableRef } from "../../../domain/deliverables/refs.js";
import { isWorkerId } from "../../../domain/ids.js";
import type { ParentHost } from "./host.js";

export type ViewOpener = (host: ParentHost) => Promise<void>;

export function viewFor(argv: readonly string[]): ViewOpener | undefined {
  const [verb, ...rest] = argv;
  const parsed = parseRest(rest);
  if (!parsed) return undefined;
  const { target, version, all } = parsed;
  if (verb === "fleet" && target === undefined && version === undefined) {
    return async (host) => (await import("./fleet-flow.js")).openFleet(host, { all });
  }
  if (all) return undefined;
  if (verb === "compare" && target !== undefined && version === undefined)
    return async (host) => (await import("./compare-view.js")).openCompare(host, target);
  if (verb === "verdict") {
    if (version !== undefined && (target === undefined || !isWorkerId(target.trim()))) return undefined; // the CLI says why
    const exact = version !== undefined ? deliverableRef(target!.trim(), version) : target;
    return async (host) =>
      (await import("./review-flow.js")).openVerdict(host, exact === undefined ? {} : { target: exact });
  }
  if (verb === "diff" && target !== undefined)
    return async (host) => (await import("./review-flow.js")).openDiff(host, target, version);
  return undefined;
}

/** `[target] [--version N] [--all]`; undefined for anything else. */
function parseRest(rest: readonly string[]): { target?: string; version?: number; all: boolean } | undefined {
  let target: string | undefined;
  let version: number | undefined;
  let all = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const eq = /^--version=(.*)$/.exec(a);
    if (a === "--version" || eq) {
      const raw = eq ? eq[1]! : rest[++i];
      if (raw === undefined || !/^[1-9][0-9]*$/.test(raw)) return undefined;
      version = Number(raw);
    } else if (a === "--all") all = true;
    else if (a.startsWith("-") || target !== undefined) return undefined;
    else target = a;
  }
  return { target, version, all };
}
