// The real Claude Code CLI as a Docket worker in real tmux, against a scripted Anthropic API on 127.0.0.1: it reads,
// edits, reports through `docket mcp`, is told something, is respawned; a read-only kind is stopped by Claude's own rules.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { agentGround, type AgentGround } from "../../support/agent-worker.js";
import { listsDocket, spawnClaude } from "../../support/claude-worker.js";
import { anthropicTexts, anthropicToolResults, startFakeAnthropic } from "../../support/fake-anthropic.js";
import { onceListed, type ScriptStep } from "../../support/fake-model-server.js";
import { DOCKET_BIN } from "../../support/docket-cli.js";
import { workerIdentityEnv } from "../../support/launch-env.js";
import { git } from "../../support/git.js";

/** A harmless call of Claude's own tools while its MCP servers connect. */
const GLOB: ScriptStep = { tools: [{ name: "Glob", input: { pattern: "*.md" } }] };
const BODY = "# Uppercased two\r\n\nThe second line of src/app.txt now reads TWO.  \nünïcode ✓";

/** A `docket mcp` with a given identity, as Claude Code would start it (client name claude-code, tool-call id in _meta). */
async function mcpAs(
  t: { after(fn: () => Promise<void>): void },
  g: AgentGround,
  identity: Record<string, string>,
): Promise<Client> {
  const client = new Client({ name: "claude-code", version: "test" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [DOCKET_BIN, "mcp"],
      env: { ...(g.env as Record<string, string>), ...identity },
      cwd: g.repo,
      stderr: "pipe",
    }),
  );
  t.after(() => client.close());
  return client;
}

test("a Claude Code worker reads, edits and publishes v1 through docket mcp; tell reaches it; after respawn the old identity is fenced", {
  timeout: 300_000,
}, async (t) => {
  const g = agentGround(t);
  const file = join(g.workspace("w1"), "src", "app.txt");
  const model = await startFakeAnthropic([
    { text: "Reading the file.", tools: [{ name: "Read", id: "toolu_read", input: { file_path: file } }] },
    { tools: [{ name: "Edit", id: "toolu_edit", input: { file_path: file, old_string: "two", new_string: "TWO" } }] },
    onceListed(
      listsDocket,
      {
        tools: [
          {
            name: "mcp__docket__docket_todos",
            id: "toolu_todos",
            input: { items: [{ text: "uppercase two", state: "completed" }] },
          },
        ],
      },
      GLOB,
    ),
    {
      text: "Publishing.",
      tools: [
        {
          name: "mcp__docket__docket_done",
          id: "toolu_done",
          input: { body: BODY, outcome: "completed", summary: "uppercased two" },
        },
      ],
    },
    { text: "Published v1." },
  ]);
  t.after(() => model.close());
  g.watch(model);

  const spawned = spawnClaude(g, model.url, "Uppercase the second line");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  await g.until(
    "the first heartbeat (from docket mcp while claude lives)",
    () => g.row("SELECT heartbeat_at FROM workers WHERE id = 'w1'").heartbeat_at,
  );
  await g.until("w1 ready with v1", () => g.row("SELECT state FROM workers WHERE id = 'w1'").state === "ready");

  const first = model.main()[0]!;
  // Claude Code connects MCP servers while its first requests are under way: listed by the time it called one.
  const tools: string[] = model
    .main()
    .find(listsDocket)!
    .body.tools.map((x: { name: string }) => x.name);
  assert.deepEqual(tools.filter((n) => n.startsWith("mcp__")).sort(), [
    "mcp__docket__docket_consult",
    "mcp__docket__docket_done",
    "mcp__docket__docket_fail",
    "mcp__docket__docket_note",
    "mcp__docket__docket_todos",
    "mcp__docket__docket_wait",
  ]);
  assert.match(anthropicTexts(first).join("\n"), /You are Docket worker w1\. Your task is in .*task\.md/);
  assert.match(
    JSON.stringify(first.body.system),
    /Docket worker guardrails[\s\S]*the deliverable body is the `body` argument of docket_done/,
  );
  assert.match(
    anthropicToolResults(model.main()[1]!)
      .map((r) => r.text)
      .join("\n"),
    /two/,
    "Claude's own Read returned the file",
  );

  const v1 = JSON.parse(readFileSync(join(g.home, "fleet", "w1", "deliverables", "v1.json"), "utf8"));
  assert.equal(v1.body, BODY);
  assert.equal(v1.toolCallId, "toolu_done");
  assert.deepEqual(
    v1.changeSet.files.map((f: { path: string }) => f.path),
    ["src/app.txt"],
  );
  const patch = join(g.home, "v1.patch");
  writeFileSync(patch, v1.changeSet.patch);
  git(g.repo, "apply", "--check", patch);
  const verdict = g.run("verdict", "w1");
  assert.equal(verdict.code, 0, verdict.stderr);
  assert.match(verdict.stdout, /v1 · worker-deliverable:w1:1 · not judged/);
  assert.match(verdict.stdout, /\+1 −1 +src\/app\.txt/);
  assert.match(g.run("diff", "w1").stdout, /-two\n\+TWO/);
  assert.deepEqual(JSON.parse(g.row("SELECT todos FROM workers WHERE id = 'w1'").todos), [
    { id: "t1", text: "uppercase two", state: "completed" },
  ]);

  const identity = workerIdentityEnv(g.home, "w1"); // generation 1's own identity, as its process has it
  const again = await (await mcpAs(t, g, identity)).callTool({
    name: "docket_done",
    arguments: { body: "other", outcome: "completed", summary: "again" },
    _meta: { "claudecode/toolUseId": "toolu_done" },
  });
  assert.deepEqual(
    again.content,
    [{ type: "text", text: "Published worker-deliverable:w1:1 (v1); the human will review it." }],
    "the same tool-call id returns v1",
  );

  const told = g.run("tell", "w1", "TELL-MARKER also check the README", "--json");
  assert.equal(told.code, 0, told.stderr);
  const seen = await g.until("the told text in a request to the model", () =>
    model.main().find((r) => anthropicTexts(r).some((x) => x.includes("TELL-MARKER also check the README"))),
  );
  assert.ok(anthropicTexts(seen).some((x) => x.includes("[docket · from the human]")));
  await g.until(
    "m1 read (Claude's UserPromptSubmit hook saw it)",
    () => g.row("SELECT delivery FROM messages WHERE id = ?", told.json.message).delivery === "read",
  );

  const respawned = g.run("respawn", "w1", "--json");
  assert.deepEqual(respawned.json, { worker: "w1", generation: 2 });
  await g.until(
    "generation 2's heartbeat",
    () => g.row("SELECT generation, heartbeat_at FROM workers WHERE id = 'w1'").heartbeat_at,
  );
  const old = await mcpAs(t, g, identity);
  const fenced = await old.callTool({
    name: "docket_done",
    arguments: { body: "late", outcome: "completed", summary: "late" },
    _meta: { "claudecode/toolUseId": "toolu_late" },
  });
  assert.equal(fenced.isError, true);
  assert.deepEqual(fenced.content, [
    {
      type: "text",
      text: "w1 generation 1 was replaced by generation 2; this process was replaced and its reports are refused",
    },
  ]);
});

test("a read-only Claude Code worker's edit is refused by Claude's own permission layer and the checkout stays unchanged", {
  timeout: 300_000,
}, async (t) => {
  const g = agentGround(t);
  const file = join(g.repo, "src", "app.txt");
  const before = statSync(file).mtimeMs;
  const model = await startFakeAnthropic([
    { tools: [{ name: "Read", id: "toolu_read", input: { file_path: file } }] },
    {
      tools: [{ name: "Edit", id: "toolu_edit", input: { file_path: file, old_string: "two", new_string: "HACKED" } }],
    },
    { tools: [{ name: "Write", id: "toolu_write", input: { file_path: join(g.repo, "new.txt"), content: "x" } }] },
    {
      tools: [
        {
          name: "Bash",
          id: "toolu_bash",
          input: { command: "printf HACKED > src/app.txt", description: "overwrite the file" },
        },
      ],
    },
    onceListed(
      listsDocket,
      {
        tools: [
          {
            name: "mcp__docket__docket_done",
            id: "toolu_done",
            input: { body: "Could not edit: read-only.", outcome: "findings", summary: "read-only" },
          },
        ],
      },
      GLOB,
    ),
    { text: "Done." },
  ]);
  t.after(() => model.close());
  g.watch(model);

  const spawned = spawnClaude(g, model.url, "try to edit", { kind: "scout" });
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  await g.until("w1 ready", () => g.row("SELECT state FROM workers WHERE id = 'w1'").state === "ready");
  const results = model.main().flatMap((r) => anthropicToolResults(r));
  for (const id of ["toolu_edit", "toolu_write"]) {
    const r = results.find((x) => x.id === id);
    assert.ok(r?.isError, `${id} was refused: ${JSON.stringify(r)}`);
    assert.match(r!.text, /is disabled for this session/, "the deny rule removed the edit tools");
  }
  const bash = results.find((x) => x.id === "toolu_bash");
  assert.ok(bash?.isError, `a writing command is refused without asking anyone: ${JSON.stringify(bash)}`);
  assert.equal(readFileSync(file, "utf8"), "one\ntwo\nthree\n");
  assert.equal(statSync(file).mtimeMs, before);
  assert.equal(git(g.repo, "status", "--porcelain"), "");
});
