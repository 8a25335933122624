// The real Claude Code and Codex CLIs as Docket workers in real tmux, each against its scripted API on 127.0.0.1: it
// reads, edits, reports through `docket mcp`, is told something, is respawned; a read-only kind is stopped by the
// agent's own rules (Claude's permission layer, Codex's sandbox). One test per agent, written once.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { agentGround, type AgentGround } from "../../support/agent-worker.js";
import { CLAUDE_CASE, CODEX_CASE, doneWhenListed, type McpAgentCase } from "../../support/mcp-agent-cases.js";
import {
  onceListed,
  type RecordedRequest,
  type ScriptEntry,
  type ScriptedToolCall,
} from "../../support/fake-model-server.js";
import { DOCKET_BIN } from "../../support/docket-cli.js";
import { workerIdentityEnv } from "../../support/launch-env.js";
import { git } from "../../support/git.js";
import { UNGATED_KIND } from "../../support/scripted-pi.js";

const BODY = "# Uppercased two\r\n\nThe second line of src/app.txt now reads TWO.  \nünïcode ✓";

/** What differs between the two agents' runs beyond their wire: their own tools, and what each shows of them. */
interface TmuxCase {
  a: McpAgentCase;
  /** Spawn flags of the writable run and of the read-only (scout) run. */
  writable: string[];
  readOnly: string[];
  /** The agent's own read of a file (`file` in the workspace), and its edit of `two` to `TWO`. */
  read(file: string): ScriptedToolCall;
  edit(file: string): ScriptedToolCall;
  /** The worker's instructions as the first request carries them. */
  instructions(first: RecordedRequest): string;
  /** What the read's result shows of the file. */
  readShows: RegExp;
  /** Who marks a told message read. */
  readBy: string;
  /** The read-only run's own attempts at the checkout (`repo`), before its docket_done. */
  readOnlyTries(repo: string): ScriptEntry[];
  /** Those attempts, refused by the agent's own rules. */
  assertRefused(results: { id: string; text: string; isError?: boolean }[]): void;
}

const CASES: TmuxCase[] = [
  {
    a: CLAUDE_CASE,
    writable: ["--as", UNGATED_KIND],
    readOnly: ["--as", "scout"],
    read: (file) => ({ name: "Read", id: "toolu_read", input: { file_path: file } }),
    edit: (file) => ({
      name: "Edit",
      id: "toolu_edit",
      input: { file_path: file, old_string: "two", new_string: "TWO" },
    }),
    instructions: (first) => JSON.stringify(first.body.system),
    readShows: /two/,
    readBy: "Claude's UserPromptSubmit hook saw it",
    readOnlyTries: (repo) => {
      const file = join(repo, "src", "app.txt");
      return [
        { tools: [{ name: "Read", id: "toolu_read", input: { file_path: file } }] },
        {
          tools: [
            { name: "Edit", id: "toolu_edit", input: { file_path: file, old_string: "two", new_string: "HACKED" } },
          ],
        },
        { tools: [{ name: "Write", id: "toolu_write", input: { file_path: join(repo, "new.txt"), content: "x" } }] },
        {
          tools: [
            {
              name: "Bash",
              id: "toolu_bash",
              input: { command: "printf HACKED > src/app.txt", description: "overwrite the file" },
            },
          ],
        },
      ];
    },
    assertRefused: (results) => {
      for (const id of ["toolu_edit", "toolu_write"]) {
        const r = results.find((x) => x.id === id);
        assert.ok(r?.isError, `${id} was refused: ${JSON.stringify(r)}`);
        assert.match(r!.text, /is disabled for this session/, "the deny rule removed the edit tools");
      }
      const bash = results.find((x) => x.id === "toolu_bash");
      assert.ok(bash?.isError, `a writing command is refused without asking anyone: ${JSON.stringify(bash)}`);
    },
  },
  {
    a: CODEX_CASE,
    writable: ["--model", "scripted-model"],
    readOnly: ["--model", "scripted-model", "--as", "scout"],
    read: () => ({ name: "exec_command", id: "call_read", input: { cmd: "cat src/app.txt" } }),
    edit: () => ({ name: "exec_command", id: "call_edit", input: { cmd: "sed -i s/two/TWO/ src/app.txt" } }),
    instructions: (first) => CODEX_CASE.texts(first).join("\n"),
    readShows: /one\\ntwo\\nthree|one\ntwo\nthree/,
    readBy: "Codex's notify listed it among the turn's input",
    readOnlyTries: () => [
      { tools: [{ name: "exec_command", id: "call_write", input: { cmd: "printf HACKED > src/app.txt" } }] },
    ],
    assertRefused: (results) => {
      assert.match(results.find((o) => o.id === "call_write")?.text ?? "", /Read-only file system/);
    },
  },
];

/** A `docket mcp` with a given identity, as the agent would start it (its client name, the tool-call id in _meta). */
async function mcpAs(
  t: { after(fn: () => Promise<void>): void },
  g: AgentGround,
  a: McpAgentCase,
  identity: Record<string, string>,
): Promise<Client> {
  const client = new Client({ name: a.mcpClient, version: "test" });
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

for (const c of CASES) {
  const { a } = c;

  test(`a ${a.name} worker reads, edits and publishes v1 through docket mcp; tell reaches it; after respawn the old identity is fenced`, {
    timeout: 300_000,
  }, async (t) => {
    const g = agentGround(t);
    const file = join(g.workspace("w1"), "src", "app.txt");
    const model = await a.startModel([
      { text: "Reading the file.", tools: [c.read(file)] },
      { tools: [c.edit(file)] },
      onceListed(
        a.listsDocket,
        {
          tools: [
            a.docketCall("docket_todos", a.callId("todos"), { items: [{ text: "uppercase two", state: "completed" }] }),
          ],
        },
        a.filler,
      ),
      {
        text: "Publishing.",
        tools: [
          a.docketCall("docket_done", a.callId("done"), {
            body: BODY,
            outcome: "completed",
            summary: "uppercased two",
          }),
        ],
      },
      { text: "Published v1." },
    ]);
    t.after(() => model.close());
    g.watch(model);

    const spawned = a.spawn(g, model, c.writable, "Uppercase the second line");
    assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
    await g.until(
      `the first heartbeat (from docket mcp while ${a.agent} lives)`,
      () => g.row("SELECT heartbeat_at FROM workers WHERE id = 'w1'").heartbeat_at,
    );
    await g.until("w1 ready with v1", () => g.row("SELECT state FROM workers WHERE id = 'w1'").state === "ready");

    const first = model.main()[0]!;
    // The agent connects MCP servers while its first requests are under way: listed by the time it called one.
    assert.deepEqual(a.docketTools(model.main().find(a.listsDocket)!), [
      "docket_consult",
      "docket_done",
      "docket_fail",
      "docket_note",
      "docket_todos",
      "docket_wait",
    ]);
    assert.match(a.texts(first).join("\n"), /You are Docket worker w1\. Your task is in .*task\.md/);
    assert.match(
      c.instructions(first),
      /Docket worker guardrails[\s\S]*the deliverable body is the `body` argument of docket_done/,
    );
    assert.match(
      a
        .toolResults(model.main()[1]!)
        .map((r) => r.text)
        .join("\n"),
      c.readShows,
      `${a.name}'s own read returned the file`,
    );

    const v1 = JSON.parse(readFileSync(join(g.home, "fleet", "w1", "deliverables", "v1.json"), "utf8"));
    assert.equal(v1.body, BODY);
    assert.equal(v1.toolCallId, a.callId("done"));
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
    const again = await (await mcpAs(t, g, a, identity)).callTool({
      name: "docket_done",
      arguments: { body: "other", outcome: "completed", summary: "again" },
      _meta: a.callMeta(a.callId("done")),
    });
    assert.deepEqual(
      again.content,
      [{ type: "text", text: "Published worker-deliverable:w1:1 (v1); the human will review it." }],
      "the same tool-call id returns v1",
    );

    const told = g.run("tell", "w1", "TELL-MARKER also check the README", "--json");
    assert.equal(told.code, 0, told.stderr);
    const seen = await g.until("the told text in a request to the model", () =>
      model.main().find((r) => a.texts(r).some((x) => x.includes("TELL-MARKER also check the README"))),
    );
    assert.ok(a.texts(seen).some((x) => x.includes("[docket · from the human]")));
    await g.until(
      `m1 read (${c.readBy})`,
      () => g.row("SELECT delivery FROM messages WHERE id = ?", told.json.message).delivery === "read",
    );

    const respawned = g.run("respawn", "w1", "--json");
    assert.deepEqual(respawned.json, { worker: "w1", generation: 2 });
    await g.until(
      "generation 2's heartbeat",
      () => g.row("SELECT heartbeat_at FROM workers WHERE id = 'w1' AND generation = 2")?.heartbeat_at,
    );
    const fenced = await (await mcpAs(t, g, a, identity)).callTool({
      name: "docket_done",
      arguments: { body: "late", outcome: "completed", summary: "late" },
      _meta: a.callMeta(a.callId("late")),
    });
    assert.equal(fenced.isError, true);
    assert.deepEqual(fenced.content, [
      {
        type: "text",
        text: "w1 generation 1 was replaced by generation 2; this process was replaced and its reports are refused",
      },
    ]);
  });

  test(`a read-only ${a.name} worker's writes are refused by its own rules and the checkout stays unchanged`, {
    timeout: 300_000,
  }, async (t) => {
    const g = agentGround(t);
    const file = join(g.repo, "src", "app.txt");
    const before = statSync(file).mtimeMs;
    const model = await a.startModel([
      ...c.readOnlyTries(g.repo),
      doneWhenListed(a, { body: "Could not write: read-only.", outcome: "findings", summary: "read-only" }),
      { text: "Done." },
    ]);
    t.after(() => model.close());
    g.watch(model);

    const spawned = a.spawn(g, model, c.readOnly, "try to write");
    assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
    await g.until("w1 ready", () => g.row("SELECT state FROM workers WHERE id = 'w1'").state === "ready");
    c.assertRefused(model.main().flatMap((r) => a.toolResults(r)));
    assert.equal(readFileSync(file, "utf8"), "one\ntwo\nthree\n");
    assert.equal(statSync(file).mtimeMs, before);
    assert.equal(git(g.repo, "status", "--porcelain"), "");
  });
}
