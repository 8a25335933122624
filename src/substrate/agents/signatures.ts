// What each agent prints in its pane when it stopped on an error it cannot get past by itself: authentication, the
// model, quota or billing. One table per agent, next to its launcher; which agents are scanned at all is a trait
// (domain/agents/traits.ts: screenShowsBlocked).

/** A pane line that says the agent is blocked: the pattern, and what the human is told it means. */
export interface PaneSignature {
  pattern: RegExp;
  means: "auth" | "model" | "quota";
}

const PI: readonly PaneSignature[] = [
  // pi prints a failed model call as `Error: <the provider's message>` in the conversation.
  {
    pattern:
      /^\s*Error: .*(\b401\b|\b403\b|unauthori[sz]ed|authenticat|invalid.{0,20}(api|x-api)[ -]?key|no api key|api key .*(missing|invalid))/i,
    means: "auth",
  },
  { pattern: /^\s*Error: .*(\b429\b|quota|rate.?limit|insufficient|credit balance|billing)/i, means: "quota" },
  { pattern: /^\s*Error: .*(model .*not (found|supported|available)|not_found_error|unknown model)/i, means: "model" },
  { pattern: /^\s*No (API key|model) (found|available|selected)/i, means: "auth" },
];

const CLAUDE: readonly PaneSignature[] = [
  // While it retries, Claude Code shows the status and the API's message: `401 invalid x-api-key · retrying in 24s …`.
  { pattern: /^(401|403)\b.*\bretrying\b/, means: "auth" },
  { pattern: /^429\b.*\bretrying\b/, means: "quota" },
  { pattern: /Invalid API key\b.*(\/login)?/i, means: "auth" },
  { pattern: /Please run \/login/i, means: "auth" },
  { pattern: /OAuth token (has )?expired|authentication_error/i, means: "auth" },
  { pattern: /API Error: (401|403)\b/, means: "auth" },
  { pattern: /Credit balance is too low|usage limit reached|API Error: 429\b/i, means: "quota" },
  { pattern: /API Error: 404\b|model: .* not found|There's an issue with the selected model/i, means: "model" },
];

const CODEX: readonly PaneSignature[] = [
  { pattern: /\b401 Unauthorized\b|unexpected status 401|Please (log|sign) in|codex login/i, means: "auth" },
  { pattern: /usage limit|quota exceeded|insufficient_quota|\b429 Too Many Requests\b/i, means: "quota" },
  { pattern: /model_not_found|model .* does not exist|unexpected status 404/i, means: "model" },
];

/** Every agent's signatures; a command worker has none (its output is its own). */
const PANE_SIGNATURES: Readonly<Record<string, readonly PaneSignature[]>> = {
  pi: PI,
  claude: CLAUDE,
  codex: CODEX,
};

/** Only the bottom of the screen counts: an error scrolled this far up was followed by other work. */
const SIGNATURE_LINES = 15;

/** The line (the agent's own words, trimmed) that says `agent` is blocked, from a pane's text; undefined when none. */
export function blockedLine(agent: string, paneText: string): string | undefined {
  const table = PANE_SIGNATURES[agent];
  if (!table) return undefined;
  const lines = paneText
    .split("\n")
    .map((l) => l.replace(/[│╭╮╰╯─⎿●✻]+/g, " ").trim())
    .filter((l) => l !== "")
    .slice(-SIGNATURE_LINES);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!table.some((s) => s.pattern.test(line))) continue;
    // A retry countdown changes every second; the agent's words before it do not.
    const words = line.replace(/\s*·\s*retrying\b.*$/i, "");
    return words.length > 300 ? `${words.slice(0, 299)}…` : words;
  }
  return undefined;
}
