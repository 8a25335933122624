// `--wait` on spawn and answer: how long a verb waits for the worker's next word, and the line that says what came.
// The wait itself is the engine's (engine/workers/wait.ts); each suggested command runs as written.

import type { WaitOutcome } from "../../../engine/workers/wait.js";

export const WAIT_MS = 300_000;

export function waitedLine(worker: string, outcome: WaitOutcome): string {
  switch (outcome) {
    case "ready":
      return `${worker} is ready: \`docket verdict ${worker}\` shows its card`;
    case "needs_input":
      return `${worker} asks a question: \`docket verdict ${worker}\` shows it`;
    case "failed":
      return `${worker} failed: \`docket show ${worker}\` says why`;
    case "ended":
      return `${worker} ended: \`docket show ${worker}\``;
    case "exited":
      return `${worker} exited before reporting: \`docket peek ${worker}\` shows its last lines`;
    case "blocked":
      return `${worker} is blocked: its agent cannot go on by itself; \`docket peek ${worker}\` shows its screen, \`docket attach ${worker}\` lets you fix it there`;
    case "interrupted":
      return `stopped waiting; ${worker} keeps running. Follow it with \`docket show ${worker}\`, \`docket peek ${worker}\` or \`docket attach ${worker}\`; \`docket verdict ${worker}\` once it is ready`;
  }
}
