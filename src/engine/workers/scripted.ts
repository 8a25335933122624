// `docket spawn --scripted <steps.json>`: a pi worker driven by the shipped scripted model instead of a real one,
// so the whole loop can be tried without a model key or a network. The steps file is checked before anything starts.

import { resolve } from "node:path";
import { AGENT_TRAITS } from "../../domain/agents/traits.js";
import { usageError, validationError } from "../../domain/errors.js";
import { readInputFile } from "../../files/input-file.js";
import { parseStrictJsonBytes } from "../../domain/text/strict-json.js";
import { EVIDENCE_KINDS, MAX_EVIDENCE, REPORT_OUTCOMES } from "../../domain/work/report.js";
import type { SpawnInput } from "./spawn-resolve.js";

/** The scripted model's provider/model (registered by the pi extension `surfaces/pi/scripted-model.js`). */
export const SCRIPTED_MODEL = "docket-demo/scripted";

/** What each step of a steps file may hold: one model reply. */
export const SCRIPTED_STEP_FORMAT = [
  "A steps file is a JSON array; each element is one model reply, served in order, one per model call:",
  '  {"text": "…", "toolCall": {"name": "write", "arguments": {"path": "a.txt", "content": "…"}}}',
  '  {"toolCalls": [{…}, {…}]}   several calls in one reply; "delayMs": 2000 answers only after that long',
  "Tools are pi's (read, write, edit, bash) and Docket's (docket_todos, docket_done, docket_fail, docket_note, …);",
  "docket_done's arguments: outcome (completed | findings | proposal), summary, and optional evidence, recommendations,",
  "items; the reply's text is the deliverable's body. When the steps run out the model answers with a short text and",
  "stops, so the worker idles. The shapes of evidence and items (docket_report takes the same items):",
  `  "evidence": [{"kind": "${EVIDENCE_KINDS.join(" | ")}", "text": "npm test: 12 pass"}]   at most ${MAX_EVIDENCE} entries`,
  `  "items": [{"item": "t1", "outcome": "${REPORT_OUTCOMES.join(" | ")}", "body": "what you did and why",`,
  '             "evidence": […], "forHuman": ["a line for the human"], "answers": {"rp1": "your answer to reply rp1"}}]',
  '  "recommendations": ["a next step for the human"]',
  "Each item you report must have been dispatched to the worker (`--item t1` on spawn).",
];

/** The spawn input of a scripted worker: pi, the scripted model, its extension, and the steps file's absolute path. */
export function scriptedSpawnInput(input: SpawnInput, stepsFile: string, extension: string, cwd: string): SpawnInput {
  if (input.agent !== undefined && !AGENT_TRAITS[input.agent].runsScriptedModel)
    throw usageError("bad-flag", `--scripted drives a pi worker; it cannot be combined with --agent ${input.agent}`);
  if (input.model !== undefined && input.model !== SCRIPTED_MODEL)
    throw usageError("bad-flag", `--scripted uses the model ${SCRIPTED_MODEL}; drop --model ${input.model}`);
  const steps = resolve(cwd, stepsFile);
  checkSteps(readInputFile(steps, `--scripted ${stepsFile}`), stepsFile);
  return {
    ...input,
    agent: "pi",
    model: SCRIPTED_MODEL,
    piArgs: ["-e", extension],
    env: { ...input.env, DOCKET_SCRIPTED_MODEL: steps, PI_OFFLINE: "1" },
  };
}

const STEP_HINT =
  "each step is {text?, toolCall?: {name, arguments}, toolCalls?, delayMs?}; spawn's --help has the details";

function checkSteps(bytes: Uint8Array, name: string): void {
  const parsed = parseStrictJsonBytes(bytes);
  if (!parsed.ok) throw validationError("bad-steps-file", `--scripted ${name} ${parsed.reason}`, STEP_HINT);
  const steps = parsed.value;
  if (!Array.isArray(steps) || steps.length === 0)
    throw validationError("bad-steps-file", `--scripted ${name} must be a non-empty JSON array of steps`, STEP_HINT);
  steps.forEach((step, i) => {
    const problem = stepProblem(step);
    if (problem) throw validationError("bad-steps-file", `--scripted ${name}: step ${i + 1} ${problem}`, STEP_HINT);
  });
}

function stepProblem(step: unknown): string | undefined {
  if (typeof step !== "object" || step === null || Array.isArray(step)) return "is not an object";
  const s = step as Record<string, unknown>;
  const unknownKey = Object.keys(s).find((k) => !["text", "toolCall", "toolCalls", "delayMs"].includes(k));
  if (unknownKey) return `has an unknown key "${unknownKey}" (text, toolCall, toolCalls, delayMs)`;
  if (s.text !== undefined && typeof s.text !== "string") return "has a text that is not a string";
  if (s.delayMs !== undefined && (typeof s.delayMs !== "number" || !(s.delayMs >= 0)))
    return "has a delayMs that is not a number of milliseconds";
  const calls = [...(s.toolCall !== undefined ? [s.toolCall] : []), ...(Array.isArray(s.toolCalls) ? s.toolCalls : [])];
  if (s.toolCalls !== undefined && !Array.isArray(s.toolCalls)) return "has toolCalls that is not an array";
  for (const call of calls) {
    const c = call as Record<string, unknown> | null;
    if (
      typeof c !== "object" ||
      c === null ||
      typeof c.name !== "string" ||
      typeof c.arguments !== "object" ||
      c.arguments === null
    )
      return 'has a tool call without a "name" and an "arguments" object';
  }
  if (s.text === undefined && calls.length === 0) return "has neither text nor a tool call";
  return undefined;
}
