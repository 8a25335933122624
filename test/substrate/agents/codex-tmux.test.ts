// The real Codex CLI as a Docket worker in real tmux, against a scripted Responses API on 127.0.0.1: it reads, edits,
// reports through `docket mcp`, is told something, is respawned; a read-only kind is stopped by Codex's own sandbox.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { agentGround, type AgentGround } from "../../support/agent-worker.js";
import { responsesTexts, responsesToolOutputs, startFakeOpenAI } from "../../support/fake-openai.js";
import { onceListed, type FakeModelServer, type RecordedRequest } from "../../support/fake-model-server.js";
import { DOCKET_BIN } from "../../support/docket-cli.js";
import { workerIdentityEnv } from "../../support/launch-env.js";
import { git } from "../../support/git.js";

const BODY = "# Uppercased two\r\n\nThe second line of src/app.txt now reads TWO.  \nünïcode ✓";
const DOCKET = "mcp__docket";
const listsDocket = (r: RecordedRequest) => (r.body?.tools ?? []).some((x: { name?: string }) => x.name === DOCKET);

/** The user config that points Codex at the scripted server: a custom provider, given as Codex's own -c overrides. */
function providerConfig(model: FakeModelServer): unknown {
  return {
    codex: {
      extraArgs: [
        "-c",
        'model_provider="scripted"',
        "-c",
        `model_providers.scripted={name="scripted",base_url="${model.url}/v1",wire_api="responses",env_key="SCRIPTED_KEY"}`,
      ],
    },
  };
}

const spawnArgs = ["--agent", "codex", "--model", "scripted-model", "--env", "SCRIPTED_KEY=sk-test"];

async function mcpAs(
  t: { after(fn: () => Promise<void>): void },
  g: AgentGround,
  identity: Record<string, string>,
): Promise<Client> {
  const client = new Client({ name: "codex-mcp-client", version: "test" });
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

test("a Codex worker reads, edits and publishes v1 through docket mcp; tell reaches it; after respawn the old identity is fenced", {
  timeout: 300_000,
}, async (t) => {
  const g = agentGround(t);
  const model = await startFakeOpenAI([
    {
      text: "Reading the file.",
      tools: [{ name: "exec_command", id: "call_read", input: { cmd: "cat src/app.txt" } }],
    },
    { tools: [{ name: "exec_command", id: "call_edit", input: { cmd: "sed -i s/two/TWO/ src/app.txt" } }] },
    onceListed(
      listsDocket,
      {
        tools: [
          {
            namespace: DOCKET,
            name: "docket_todos",
            id: "call_todos",
            input: { items: [{ text: "uppercase two", state: "completed" }] },
          },
        ],
      },
      { tools: [{ name: "exec_command", input: { cmd: "true" } }] },
    ),
    {
      text: "Publishing.",
      tools: [
        {
          namespace: DOCKET,
          name: "docket_done",
          id: "call_done",
          input: { body: BODY, outcome: "completed", summary: "uppercased two" },
        },
      ],
    },
    { text: "Published v1." },
  ]);
  t.after(() => model.close());
  g.configure(providerConfig(model));
  g.watch(model);

  const spawned = g.run("spawn", ...spawnArgs, "--json", "Uppercase", "the", "second", "line");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  await g.until(
    "the first heartbeat (from docket mcp while codex lives)",
    () => g.row("SELECT heartbeat_at FROM workers WHERE id = 'w1'").heartbeat_at,
  );
  await g.until("w1 ready with v1", () => g.row("SELECT state FROM workers WHERE id = 'w1'").state === "ready");

  const first = model.main()[0]!;
  const namespace = model
    .main()
    .find((r) => listsDocket(r))!
    .body.tools.find((x: { name?: string }) => x.name === DOCKET);
  assert.deepEqual(namespace.tools.map((x: { name: string }) => x.name).sort(), [
    "docket_consult",
    "docket_done",
    "docket_fail",
    "docket_note",
    "docket_todos",
    "docket_wait",
  ]);
  assert.match(responsesTexts(first).join("\n"), /You are Docket worker w1\. Your task is in .*task\.md/);
  assert.match(responsesTexts(first).join("\n"), /the deliverable body is the `body` argument of docket_done/);
  assert.match(
    responsesToolOutputs(model.main()[1]!)
      .map((o) => o.text)
      .join("\n"),
    /one\\ntwo\\nthree|one\ntwo\nthree/,
    "Codex's own shell read the file",
  );

  const v1 = JSON.parse(readFileSync(join(g.home, "fleet", "w1", "deliverables", "v1.json"), "utf8"));
  assert.equal(v1.body, BODY);
  assert.equal(v1.toolCallId, "call_done");
  assert.deepEqual(
    v1.changeSet.files.map((f: { path: string }) => f.path),
    ["src/app.txt"],
  );
  const patch = join(g.home, "v1.patch");
  writeFileSync(patch, v1.changeSet.patch);
  git(g.repo, "apply", "--check", patch);
  assert.match(g.run("verdict", "w1").stdout, /\+1 −1 +src\/app\.txt/);
  assert.match(g.run("diff", "w1").stdout, /-two\n\+TWO/);

  const identity = workerIdentityEnv(g.home, "w1"); // generation 1's own identity, as its process has it
  const again = await (await mcpAs(t, g, identity)).callTool({
    name: "docket_done",
    arguments: { body: "other", outcome: "completed", summary: "again" },
    _meta: { callId: "call_done" },
  });
  assert.deepEqual(
    again.content,
    [{ type: "text", text: "Published worker-deliverable:w1:1 (v1); the human will review it." }],
    "the same tool-call id returns v1",
  );

  const told = g.run("tell", "w1", "TELL-MARKER also check the README", "--json");
  assert.equal(told.code, 0, told.stderr);
  await g.until("the told text in a request to the model", () =>
    model.main().find((r) => responsesTexts(r).some((x) => x.includes("TELL-MARKER also check the README"))),
  );
  await g.until(
    "m1 read (Codex's notify listed it among the turn's input)",
    () => g.row("SELECT delivery FROM messages WHERE id = ?", told.json.message).delivery === "read",
  );

  const respawned = g.run("respawn", "w1", "--json");
  assert.deepEqual(respawned.json, { worker: "w1", generation: 2 });
  await g.until(
    "generation 2's heartbeat",
    () => g.row("SELECT heartbeat_at FROM workers WHERE id = 'w1' AND generation = 2")?.heartbeat_at,
  );
  const fenced = await (await mcpAs(t, g, identity)).callTool({
    name: "docket_done",
    arguments: { body: "late", outcome: "completed", summary: "late" },
    _meta: { callId: "call_late" },
  });
  assert.equal(fenced.isError, true);
  assert.deepEqual(fenced.content, [
    {
      type: "text",
      text: "w1 generation 1 was replaced by generation 2; this process was replaced and its reports are refused",
    },
  ]);
});

test("a read-only Codex worker's write is refused by Codex's own sandbox and the checkout stays unchanged", {
  timeout: 300_000,
}, async (t) => {
  const g = agentGround(t);
  const model = await startFakeOpenAI([
    { tools: [{ name: "exec_command", id: "call_write", input: { cmd: "printf HACKED > src/app.txt" } }] },
    onceListed(
      listsDocket,
      {
        tools: [
          {
            namespace: DOCKET,
            name: "docket_done",
            id: "call_done",
            input: { body: "Could not write: read-only.", outcome: "findings", summary: "read-only" },
          },
        ],
      },
      { tools: [{ name: "exec_command", input: { cmd: "true" } }] },
    ),
    { text: "Done." },
  ]);
  t.after(() => model.close());
  g.configure(providerConfig(model));
  g.watch(model);
  const spawned = g.run("spawn", ...spawnArgs, "--as", "scout", "--json", "try", "to", "write");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  await g.until("w1 ready", () => g.row("SELECT state FROM workers WHERE id = 'w1'").state === "ready");
  const output = model
    .main()
    .flatMap((r) => responsesToolOutputs(r))
    .find((o) => o.id === "call_write");
  assert.match(output?.text ?? "", /Read-only file system/);
  assert.equal(readFileSync(join(g.repo, "src", "app.txt"), "utf8"), "one\ntwo\nthree\n");
  assert.equal(git(g.repo, "status", "--porcelain"), "");
});
