// `docket mcp` alone, driven by the MCP SDK's own client over stdio: the six tools from the one wire schema, each
// call's success, each refusal as a tool error with Docket's one-line message, idempotency and fencing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { workLedger } from "../../support/work-ledger.js";
import { isolatedWorker, type ProtocolWorker, WORKER_TOOLS } from "../../support/protocol-worker.js";
import { DOCKET_BIN } from "../../support/docket-cli.js";
import { git } from "../../support/git.js";
import { hashRunToken, requireWorker, updateWorker } from "../../../src/ledger/workers/workers.js";
import { readDeliverable } from "../../../src/files/workers/deliverables.js";
import { workerCalls } from "../../../src/surfaces/shared/worker-wire.js";
import type { EngineContext } from "../../../src/engine/context.js";

type Text = { type: string; text: string }[];

function identityEnv(ctx: EngineContext, w: ProtocolWorker, generation = w.generation): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: ctx.home.root,
    DOCKET_HOME: ctx.home.root,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: String(generation),
    DOCKET_RUN_TOKEN: w.runToken,
  };
}

async function connect(
  t: { after(fn: () => Promise<void>): void },
  env: Record<string, string>,
  cwd: string,
  name = "docket-test-client",
): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [DOCKET_BIN, "mcp"], env, cwd, stderr: "pipe" }),
  );
  t.after(() => client.close());
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const r = await client.callTool({ name, arguments: args });
  return { text: (r.content as Text).map((c) => c.text).join("\n"), isError: r.isError === true };
}

test("docket mcp refuses to start without a worker identity, saying which variables are missing", () => {
  const r = spawnSync(process.execPath, [DOCKET_BIN, "mcp"], {
    env: { PATH: process.env.PATH },
    encoding: "utf8",
    input: "",
  });
  assert.equal(r.status, 2);
  assert.match(
    r.stderr,
    /^docket mcp: DOCKET_WORKER_ID, DOCKET_GENERATION, DOCKET_RUN_TOKEN are not set; worker commands run inside a worker Docket started/,
  );
});

test("the server lists the six calls of the wire schema, asking a client without tool-call ids for call_id", async (t) => {
  const { ctx } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const generic = await connect(t, identityEnv(ctx, w), w.workspace);
  const { tools } = await generic.listTools();
  const calls = workerCalls("argument");
  assert.deepEqual(
    tools.map((x) => x.name).sort(),
    Object.values(calls)
      .map((c) => c.name)
      .sort(),
  );
  assert.deepEqual(tools.map((x) => x.name).sort(), WORKER_TOOLS);
  assert.equal(tools.find((x) => x.name === "docket_consult")!.description, calls.consult.description);
  const done = tools.find((x) => x.name === "docket_done")!;
  assert.equal(done.description, calls.done.description);
  assert.match(done.description ?? "", /`body`: that argument is the deliverable body/);
  assert.deepEqual(done.inputSchema.required, ["body", "outcome", "summary", "call_id"]);
  const claude = await connect(t, identityEnv(ctx, w), w.workspace, "claude-code");
  const listed = (await claude.listTools()).tools.find((x) => x.name === "docket_done")!;
  assert.deepEqual(listed.inputSchema.required, ["body", "outcome", "summary"]);
  assert.equal(listed.inputSchema.properties?.call_id, undefined);
});

test("each call succeeds through MCP: the board, a question, a frozen version with its exact body and patch, a failure", async (t) => {
  const { ctx } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const client = await connect(t, identityEnv(ctx, w), w.workspace);
  assert.deepEqual(
    await call(client, "docket_todos", {
      call_id: "c1",
      items: [{ text: "read", state: "completed" }, { text: "edit" }],
    }),
    { text: "Board updated: 2 items, 1 completed.", isError: false },
  );
  writeFileSync(join(w.workspace, "src/app.txt"), "one\nTWO\nthree\n");
  const body = "# Uppercased two\r\n\nTrailing  spaces stay.  \nünïcode ✓";
  const done = await call(client, "docket_done", {
    call_id: "c2",
    body,
    outcome: "completed",
    summary: "uppercased two",
  });
  assert.deepEqual(done, {
    text: `Published worker-deliverable:${w.worker}:1 (v1); the human will review it.`,
    isError: false,
  });
  const v1 = readDeliverable(ctx.home, w.worker, 1);
  assert.ok(v1.ok);
  assert.equal(v1.deliverable.body, body);
  assert.equal(v1.deliverable.toolCallId, "c2");
  const patch = join(ctx.home.root, "v1.patch");
  writeFileSync(patch, v1.deliverable.changeSet!.patch);
  git(w.project, "apply", "--check", patch);
  assert.deepEqual(
    await call(client, "docket_done", { call_id: "c2", body: "another body", outcome: "completed", summary: "again" }),
    done,
  );
  assert.equal(requireWorker(ctx.db, w.worker).deliverableVersion, 1);
  const asked = await call(client, "docket_wait", {
    call_id: "c3",
    question: "Which database?",
    options: ["sqlite", "postgres"],
  });
  assert.match(asked.text, /^Question q1 is with the human\. Stop now/);
  assert.equal(requireWorker(ctx.db, w.worker).state, "needs_input");
  assert.deepEqual(await call(client, "docket_fail", { call_id: "c4", reason: "the disk is full" }), {
    text: "Recorded as failed: the disk is full",
    isError: false,
  });
  assert.equal(requireWorker(ctx.db, w.worker).state, "failed");
});

test("consult and note are served through MCP: the consult is the human's question while the lane is off, the note changes nothing", async (t) => {
  const { ctx } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const client = await connect(t, identityEnv(ctx, w), w.workspace);
  const noted = await call(client, "docket_note", {
    call_id: "n1",
    text: "I renamed config.ts to settings.ts",
    to: ["w9"],
  });
  assert.match(noted.text, /^Noted for the human as nt\d+ \(suggested for w9; the human decides\)\. Carry on/);
  assert.equal(noted.isError, false);
  assert.equal(requireWorker(ctx.db, w.worker).state, "active");
  assert.deepEqual(ctx.db.prepare("SELECT worker, text, suggested FROM notes").all(), [
    { worker: w.worker, text: "I renamed config.ts to settings.ts", suggested: '["w9"]' },
  ]);
  assert.deepEqual(await call(client, "docket_note", { call_id: "n2", text: " " }), {
    text: "docket_note needs text: say what the human (or other workers) should know; nothing was recorded",
    isError: true,
  });
  const consulted = await call(client, "docket_consult", {
    call_id: "c1",
    question: "Which logger does this repo use?",
    context: "two are imported",
    options: ["pino", "winston"],
  });
  assert.match(consulted.text, /^Consult q\d+ is with the human \(the consult lane is off\)\. Stop now/);
  assert.equal(requireWorker(ctx.db, w.worker).state, "needs_input");
  assert.deepEqual(ctx.db.prepare("SELECT text, consult, audience, context FROM questions").all(), [
    { text: "Which logger does this repo use?", consult: 1, audience: "human", context: "two are imported" },
  ]);
  assert.deepEqual(
    await call(client, "docket_consult", {
      call_id: "c1",
      question: "Which logger does this repo use?",
      context: "two are imported",
      options: ["pino", "winston"],
    }),
    consulted,
  );
  assert.equal((ctx.db.prepare("SELECT count(*) AS n FROM questions").get() as { n: number }).n, 1);
});

test("each refusal is an MCP tool error with one line: bad input, no call id, an empty question or reason, a fenced process", async (t) => {
  const { ctx } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const client = await connect(t, identityEnv(ctx, w), w.workspace);
  assert.deepEqual(await call(client, "docket_done", { call_id: "c1", body: "b", outcome: "done", summary: "s" }), {
    text: "docket_done: outcome must be equal to one of the allowed values",
    isError: true,
  });
  assert.deepEqual(await call(client, "docket_todos", { items: [{ text: "x" }] }), {
    text: "docket_todos needs call_id: give a unique id for this call (repeat it to retry the same call)",
    isError: true,
  });
  assert.deepEqual(await call(client, "docket_wait", { call_id: "c2", question: "  " }), {
    text: "docket_wait needs a question: say what you need the human to decide",
    isError: true,
  });
  assert.deepEqual(await call(client, "docket_fail", { call_id: "c3", reason: "" }), {
    text: "docket_fail needs a reason: say what stopped you",
    isError: true,
  });
  assert.equal(requireWorker(ctx.db, w.worker).state, "active");
  ctx.commands.run("test.respawn", {}, (tx) =>
    updateWorker(tx, w.worker, { generation: 2, runTokenHash: hashRunToken("token-2") }),
  );
  const fenced = await call(client, "docket_done", {
    call_id: "c4",
    body: "late",
    outcome: "completed",
    summary: "late",
  });
  assert.deepEqual(fenced, {
    text: `${w.worker} generation 1 was replaced by generation 2; this process was replaced and its reports are refused`,
    isError: true,
  });
  assert.equal(readDeliverable(ctx.home, w.worker, 1).ok, false);
});
