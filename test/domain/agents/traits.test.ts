// The agent trait table says of each agent what the code used to ask by name: these pin the sets it answers with.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AGENT_TRAITS,
  WORKER_AGENTS,
  agentsWhere,
  isMcpAgent,
  isSpendAgent,
  isWorkerAgent,
} from "../../../src/domain/agents/traits.js";

test("one row per agent, and only the four names are agents", () => {
  assert.deepEqual(Object.keys(AGENT_TRAITS), [...WORKER_AGENTS]);
  assert.deepEqual(WORKER_AGENTS.filter(isWorkerAgent), ["pi", "claude", "codex", "command"]);
  for (const other of ["", "Claude", "sh", "toString", "__proto__"]) assert.equal(isWorkerAgent(other), false, other);
});

test("the sets the code branches on: MCP agents, spend, the pane-only, hosts, use --worker, seeding, scripted", () => {
  assert.deepEqual(WORKER_AGENTS.filter(isMcpAgent), ["claude", "codex"]);
  assert.equal(isMcpAgent("toString"), false);
  assert.deepEqual(WORKER_AGENTS.filter(isSpendAgent), ["pi", "claude", "codex"]);
  assert.deepEqual(
    agentsWhere((t) => t.liveness === "pane"),
    ["command"],
  );
  assert.deepEqual(
    agentsWhere((t) => t.runsUserCommand),
    ["command"],
  );
  assert.deepEqual(
    agentsWhere((t) => t.runsOnHost),
    ["pi", "command"],
  );
  assert.deepEqual(
    agentsWhere((t) => t.startsFromUse),
    ["pi", "command"],
  );
  assert.deepEqual(
    agentsWhere((t) => t.seedsFromParent && t.runsScriptedModel && t.model === "docket-picks"),
    ["pi"],
  );
  assert.deepEqual(
    agentsWhere((t) => t.screenShowsBlocked),
    ["pi", "claude", "codex"],
  );
  assert.deepEqual(
    agentsWhere((t) => t.program === null),
    ["command"],
  );
});

test("the words a human reads of an agent", () => {
  assert.equal(AGENT_TRAITS.claude.displayName, "Claude Code (claude)");
  assert.equal(AGENT_TRAITS.codex.displayName, "Codex (codex)");
  assert.equal(AGENT_TRAITS.claude.program.install, "npm install -g @anthropic-ai/claude-code");
});
