// `/docket` in pi speaks pi's syntax: `/docket help` lists the human's verbs as `/docket …` (no worker-side verbs),
// usage errors read `docket: … — try /docket help`, and the commands Docket advises are written as `/docket …`.

import { HELP_HEADINGS, VERB_GROUPS } from "../../shared/verbs/registry.js";

/** Per help heading, in `docket --help`'s order, the human's verbs under it (several groups share a heading). */
const HUMAN_GROUPS = HELP_HEADINGS.map((heading) => ({
  heading,
  verbs: VERB_GROUPS.filter((g) => g.heading === heading).flatMap((g) => g.verbs.filter((v) => !v.agentSide)),
})).filter((g) => g.verbs.length > 0);
const HUMAN_VERBS = new Set(HUMAN_GROUPS.flatMap((g) => g.verbs.map((v) => v.name)));
const AGENT_VERBS = new Set(VERB_GROUPS.flatMap((g) => g.verbs.filter((v) => v.agentSide).map((v) => v.name)));

export type HelpRequest = { kind: "all" } | { kind: "verb"; verb: string } | { kind: "agent-side"; verb: string };

/** `/docket`, `/docket help`, `/docket --help` and `/docket help <verb>`; undefined for anything else. */
export function helpRequest(argv: readonly string[]): HelpRequest | undefined {
  const [first, second, ...rest] = argv;
  if (rest.length > 0) return undefined;
  const asked =
    first === undefined || ((first === "help" || first === "--help" || first === "-h") && second === undefined);
  if (asked) return { kind: "all" };
  if (first !== "help" || second === undefined) return undefined;
  return AGENT_VERBS.has(second) ? { kind: "agent-side", verb: second } : { kind: "verb", verb: second };
}

/**
 * The human's verbs under the CLI's headings, each as typed here: one line per heading, so the whole list stays within
 * one chat block (chat-notice.ts keeps 40 lines); `/docket help <verb>` gives a verb's usage and options.
 */
export function piHelpLines(): string[] {
  return [
    "Docket inside pi: /docket <verb> … (Tab completes verbs and workers); /docket help <verb> shows its usage and options.",
    "/docket verdict opens the review card, /docket diff <w> the diff viewer, /docket fleet the fleet dashboard.",
    ...HUMAN_GROUPS.map((g) => `${g.heading} ${g.verbs.map((v) => `/docket ${v.name}`).join(" · ")}`),
  ];
}

export function agentSideLine(verb: string): string {
  return `docket: "${verb}" is run by workers and agents, not typed here — try /docket help`;
}

const ADVICE = new RegExp(`\`docket (?=(?:${[...HUMAN_VERBS].join("|")})\\b)`, "g");

/**
 * One chunk a verb printed, as pi shows it: advised commands (in backticks) and usage lines in `/docket` form; a
 * commander usage error as one `docket:` line naming where to look; its "(run with --help …)" line dropped (undefined).
 */
export function forPi(text: string, verb: string | undefined): string | undefined {
  if (/^\(run with --help for usage\)\s*$/.test(text)) return undefined;
  const usage = /^error: ([\s\S]*?)\s*$/.exec(text);
  if (usage) {
    const known = verb !== undefined && HUMAN_VERBS.has(verb);
    const message = usage[1]!
      .replace(/'([^'\n]*)'/g, '"$1"')
      .replace(/\s*\(Did you mean (\S+)\?\)/, " (did you mean /docket $1?)");
    return `docket: ${message} — try /docket help${known ? ` ${verb}` : ""}`;
  }
  return text.replace(ADVICE, "`/docket ").replace(/^Usage: docket /gm, "Usage: /docket ");
}
