// The pane signatures of each agent (src/substrate/agents/signatures.ts): which screen lines say the agent is blocked.

import { test } from "node:test";
import assert from "node:assert/strict";
import { blockedLine } from "../../../src/substrate/agents/signatures.js";

test("each agent's own words of an auth, quota or model error are found at the bottom of its screen", () => {
  const claude = "❯ do the task\n  ⎿  Invalid API key · Please run /login\n────\n❯ \n────";
  const cases: [Parameters<typeof blockedLine>[0], string, string][] = [
    ["claude", claude, "Invalid API key · Please run /login"],
    ["claude", "✻ 401 invalid x-api-key · retrying in 24s · attempt 8/10\n❯", "401 invalid x-api-key"],
    [
      "pi",
      " Error: 401 authentication_error: invalid x-api-key\n────\n~/repo\n↑1k ↓2",
      "Error: 401 authentication_error: invalid x-api-key",
    ],
    ["pi", " Error: 429 rate limit exceeded, quota used up", "Error: 429 rate limit exceeded, quota used up"],
    [
      "codex",
      "■ unexpected status 401 Unauthorized: token expired",
      "■ unexpected status 401 Unauthorized: token expired",
    ],
  ];
  for (const [agent, screen, line] of cases) assert.equal(blockedLine(agent, screen), line, `${agent}: ${screen}`);
});

test("no signature: a command worker, an agent at work, an error scrolled far up the screen", () => {
  assert.equal(blockedLine("command", "Invalid API key · Please run /login"), undefined);
  assert.equal(blockedLine("pi", " Working on it\n read src/a.ts\n edited 3 lines"), undefined);
  const later = Array.from({ length: 30 }, (_, i) => `line ${i} of later work`).join("\n");
  assert.equal(blockedLine("pi", ` Error: 401 unauthorized\n${later}`), undefined);
});
