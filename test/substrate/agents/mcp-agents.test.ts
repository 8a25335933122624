// The launch builders of Claude Code and Codex on plain data: the kind's authority as each CLI's own permission flags,
// the private config that gets them past onboarding and trust, and docket mcp as their only MCP server.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeArgv, claudeFiles, claudePermissionArgs, prepareClaude } from "../../../src/substrate/agents/claude.js";
import { codexArgv, codexConfig, codexPermissionArgs, isCodexMainThread } from "../../../src/substrate/agents/codex.js";
import type { McpAgentSpec } from "../../../src/substrate/agents/mcp-agent.js";
import { tempDir } from "../../support/temp.js";

function spec(overrides: Partial<McpAgentSpec> = {}): McpAgentSpec {
  return {
    configDir: "/home/d/fleet/w1/claude",
    cwd: "/home/d/fleet/w1/workspace",
    workspace: "/home/d/fleet/w1/workspace",
    readOnly: false,
    model: null,
    extraArgs: [],
    prompt: "You are Docket worker w1.",
    instructions: "guardrails",
    docket: { node: "/usr/bin/node", bin: "/opt/docket/bin/docket.js" },
    env: {
      PATH: "/bin",
      DOCKET_HOME: "/home/d",
      DOCKET_WORKER_ID: "w1",
      DOCKET_GENERATION: "1",
      DOCKET_RUN_TOKEN: "secret-token",
      ANTHROPIC_API_KEY: "sk-ant-0123456789abcdefghijKLMN",
    },
    resume: false,
    ...overrides,
  };
}

test("Claude Code: read-only kinds run in dontAsk with the edit tools denied; writable kinds accept edits in their workspace", () => {
  assert.deepEqual(claudePermissionArgs({ readOnly: true, cwd: "/p", workspace: "/p" }), [
    "--permission-mode",
    "dontAsk",
    "--allowedTools",
    "mcp__docket",
    "--disallowedTools",
    "Edit",
    "Write",
    "NotebookEdit",
  ]);
  assert.deepEqual(claudePermissionArgs({ readOnly: false, cwd: "/w", workspace: "/w" }), [
    "--permission-mode",
    "acceptEdits",
    "--allowedTools",
    "mcp__docket",
  ]);
  assert.deepEqual(claudePermissionArgs({ readOnly: false, cwd: "/w/sub", workspace: "/w" }).slice(-2), [
    "--add-dir",
    "/w",
  ]);
  assert.deepEqual(
    claudePermissionArgs({ readOnly: false, cwd: "/w", workspace: "/w", unattended: true }),
    ["--permission-mode", "bypassPermissions", "--allowedTools", "mcp__docket"],
    "unattended (contained only): nothing asks",
  );
  assert.deepEqual(claudePermissionArgs({ readOnly: true, cwd: "/p", workspace: "/p", unattended: true }).slice(-4), [
    "--disallowedTools",
    "Edit",
    "Write",
    "NotebookEdit",
  ]);
  const argv = claudeArgv(spec({ model: "claude-sonnet-9", extraArgs: ["--verbose"] }), {
    command: ["/bin/claude"],
    source: "PATH",
  });
  assert.deepEqual(argv.slice(0, 6), [
    "/bin/claude",
    "--mcp-config",
    "/home/d/fleet/w1/claude/mcp.json",
    "--strict-mcp-config",
    "--setting-sources",
    "user",
  ]);
  assert.deepEqual(
    argv.slice(-5),
    ["--model", "claude-sonnet-9", "--verbose", "--", "You are Docket worker w1."],
    "model, extra args, then the prompt after --",
  );
  assert.ok(
    !argv.join(" ").includes("secret-token") && !argv.join(" ").includes("sk-ant"),
    "no token or key on the command line",
  );
});

test("Claude Code's private config: past onboarding, the key's last 20 characters approved, the workspace trusted, Docket's hooks, one MCP server", () => {
  const files = claudeFiles(spec(), { numStartups: 3, projects: { "/elsewhere": { hasTrustDialogAccepted: false } } });
  const state = JSON.parse(files[".claude.json"]!);
  assert.equal(state.hasCompletedOnboarding, true);
  assert.equal(state.numStartups, 3, "what Claude Code wrote itself is kept");
  assert.deepEqual(state.customApiKeyResponses, { approved: ["456789abcdefghijKLMN"], rejected: [] });
  assert.deepEqual(state.projects, {
    "/elsewhere": { hasTrustDialogAccepted: false },
    "/home/d/fleet/w1/workspace": { hasTrustDialogAccepted: true },
  });
  const settings = JSON.parse(files["settings.json"]!);
  assert.deepEqual(Object.keys(settings.hooks), ["UserPromptSubmit", "Stop", "PreToolUse"]);
  assert.deepEqual(
    settings.hooks.PreToolUse,
    [
      {
        matcher: "Edit|Write|NotebookEdit",
        hooks: [{ type: "command", command: '"$DOCKET_NODE" "$DOCKET_BIN" worker gate' }],
      },
    ],
    "the plan gate asks Docket before each edit",
  );
  assert.equal(settings.hooks.Stop[0].hooks[0].command, '"$DOCKET_NODE" "$DOCKET_BIN" worker hook stop');
  assert.deepEqual(JSON.parse(files["mcp.json"]!), {
    mcpServers: { docket: { type: "stdio", command: "/usr/bin/node", args: ["/opt/docket/bin/docket.js", "mcp"] } },
  });
  assert.ok(!Object.values(files).join("").includes("secret-token"), "the run token is in no config file");
});

test("prepareClaude writes its files 0600 in a 0700 directory, even over wider ones", (t) => {
  const dir = join(tempDir(t), "claude");
  mkdirSync(dir, { mode: 0o755 });
  writeFileSync(join(dir, ".claude.json"), "{}", { mode: 0o644 });
  const prepared = prepareClaude(spec({ configDir: dir }), { command: ["/bin/claude"], source: "PATH" });
  assert.deepEqual(prepared.env, {
    CLAUDE_CONFIG_DIR: dir,
    ENABLE_TOOL_SEARCH: "false",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  });
  assert.equal(
    prepareClaude(spec({ configDir: dir, unattended: true }), { command: ["/bin/claude"], source: "PATH" }).env
      .IS_SANDBOX,
    undefined,
    "never claimed outside Docket's sandbox",
  );
  assert.equal(
    prepareClaude(spec({ configDir: dir, unattended: true, contained: true }), {
      command: ["/bin/claude"],
      source: "PATH",
    }).env.IS_SANDBOX,
    "1",
    "unattended inside Docket's sandbox: bypass mode runs as root too",
  );
  assert.equal(
    JSON.parse(readFileSync(join(dir, "settings.json"), "utf8")).skipDangerousModePermissionPrompt,
    true,
    "unattended: no disclaimer waits at the pane",
  );
  assert.equal(JSON.parse(claudeFiles(spec())["settings.json"]!).skipDangerousModePermissionPrompt, undefined);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  for (const f of [".claude.json", "settings.json", "mcp.json", "docket-instructions.md"])
    assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600, f);
});

test("Codex: uncontained, read-only kinds in the read-only sandbox and writable ones in workspace-write; contained, Docket's sandbox only; never waiting for approval", () => {
  assert.deepEqual(codexPermissionArgs({ readOnly: true }), ["--sandbox", "read-only", "--ask-for-approval", "never"]);
  assert.deepEqual(codexPermissionArgs({ readOnly: false }), [
    "--sandbox",
    "workspace-write",
    "--ask-for-approval",
    "never",
  ]);
  for (const readOnly of [false, true]) {
    assert.deepEqual(
      codexPermissionArgs({ readOnly, contained: true }),
      ["--sandbox", "danger-full-access", "--ask-for-approval", "never"],
      "contained: Docket's sandbox is the boundary (Codex's own cannot nest in it)",
    );
  }
  const argv = codexArgv(spec({ model: "gpt-9" }), { command: ["/bin/codex"], source: "PATH" });
  assert.deepEqual(argv, [
    "/bin/codex",
    "--sandbox",
    "workspace-write",
    "--ask-for-approval",
    "never",
    "--no-daemon",
    "--cd",
    "/home/d/fleet/w1/workspace",
    "--model",
    "gpt-9",
    "You are Docket worker w1.",
  ]);
});

test("Codex's config.toml: the workspace trusted, docket mcp auto-approved with the names (not values) of Docket's variables, notify", () => {
  const toml = codexConfig(spec({ workspace: '/odd "dir"', instructions: 'say "hi"\nthen stop' }));
  assert.match(toml, /^developer_instructions = "say \\"hi\\"\\nthen stop"$/m);
  assert.match(
    toml,
    /^notify = \["\/usr\/bin\/node", "\/opt\/docket\/bin\/docket\.js", "worker", "hook", "notify"\]$/m,
  );
  assert.match(toml, /^\[projects\."\/odd \\"dir\\""\]\ntrust_level = "trusted"$/m);
  assert.match(toml, /^env_vars = \["DOCKET_GENERATION", "DOCKET_HOME", "DOCKET_RUN_TOKEN", "DOCKET_WORKER_ID"\]$/m);
  assert.match(toml, /^default_tools_approval_mode = "approve"$/m);
  assert.ok(!toml.includes("secret-token") && !toml.includes("sk-ant"));
});

test("a Codex notify counts only for the thread that keeps a rollout file (not its title thread)", (t) => {
  const home = tempDir(t);
  const day = join(home, "sessions", "2026", "12", "01");
  mkdirSync(day, { recursive: true });
  writeFileSync(join(day, "rollout-2026-12-01T03-13-56-01a22f98-4091-7ae0-bee0-75400c0bcc77.jsonl"), "");
  assert.equal(isCodexMainThread(home, "01a22f98-4091-7ae0-bee0-75400c0bcc77"), true);
  assert.equal(isCodexMainThread(home, "01a22f98-41c3-7c42-80ad-b2bfdc380a95"), false);
  assert.equal(isCodexMainThread(home, "../../etc"), false);
});
