// The scripted model servers themselves: they stream the Anthropic and Responses wires the real CLIs read, record every
// request, keep side requests out of the script, and hold an entry until the request lists what it needs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { anthropicToolResults, startFakeAnthropic } from "./fake-anthropic.js";
import { responsesToolOutputs, startFakeOpenAI } from "./fake-openai.js";
import { onceListed } from "./fake-model-server.js";

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<string> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return r.text();
}

const events = (sse: string) => [...sse.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!));

test("the Anthropic fake streams text and tool_use blocks for main requests and answers side requests apart", async (t) => {
  const model = await startFakeAnthropic([
    { text: "reading", tools: [{ name: "Read", id: "toolu_1", input: { file_path: "/a" } }] },
  ]);
  t.after(() => model.close());
  const tools = [{ name: "Read" }];
  const first = events(
    await post(`${model.url}/v1/messages?beta=true`, {
      model: "m",
      stream: true,
      tools,
      messages: [{ role: "user", content: "go" }],
    }),
  );
  assert.deepEqual(
    first.map((e) => e.type),
    [
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ],
  );
  assert.deepEqual(first[4].content_block, { type: "tool_use", id: "toolu_1", name: "Read", input: {} });
  assert.deepEqual(JSON.parse(first[5].delta.partial_json), { file_path: "/a" });
  assert.equal(first[7].delta.stop_reason, "tool_use");
  const side = events(
    await post(`${model.url}/v1/messages`, {
      model: "m",
      stream: true,
      messages: [{ role: "user", content: "title?" }],
    }),
  );
  assert.equal(side.find((e) => e.type === "content_block_delta").delta.text, "Worker task");
  const result = {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "toolu_1", is_error: true, content: "denied" }],
  };
  const last = events(await post(`${model.url}/v1/messages`, { model: "m", stream: true, tools, messages: [result] }));
  assert.equal(last.find((e) => e.type === "content_block_delta").delta.text, "(end of script)");
  assert.deepEqual(
    model.requests.map((r) => [r.main, r.step]),
    [
      [true, 0],
      [false, undefined],
      [true, undefined],
    ],
  );
  assert.deepEqual(anthropicToolResults(model.requests[2]!), [{ id: "toolu_1", isError: true, text: "denied" }]);
});

test("the Responses fake streams function calls (with a namespace) and keeps Codex's title thread out of the script", async (t) => {
  const model = await startFakeOpenAI([
    { tools: [{ namespace: "mcp__docket", name: "docket_done", id: "call_1", input: { body: "b" } }] },
  ]);
  t.after(() => model.close());
  const tools = [{ type: "function", name: "exec_command" }];
  const title = events(
    await post(
      `${model.url}/v1/responses`,
      { tools, input: [] },
      { "x-codex-turn-metadata": JSON.stringify({ thread_source: "thread_title" }) },
    ),
  );
  assert.equal(title.find((e) => e.type === "response.output_text.delta").delta, "Worker task");
  const main = events(
    await post(
      `${model.url}/v1/responses`,
      { tools, input: [] },
      { "x-codex-turn-metadata": JSON.stringify({ thread_source: "user" }) },
    ),
  );
  const call = main.find((e) => e.type === "response.output_item.done").item;
  assert.deepEqual(
    { ...call, arguments: JSON.parse(call.arguments) },
    {
      type: "function_call",
      id: "fc_2_0",
      call_id: "call_1",
      name: "docket_done",
      namespace: "mcp__docket",
      arguments: { body: "b" },
      status: "completed",
    },
  );
  assert.equal(main.at(-1).type, "response.completed");
  await post(`${model.url}/v1/responses`, {
    tools,
    input: [{ type: "function_call_output", call_id: "call_1", output: "ok" }],
  });
  assert.deepEqual(responsesToolOutputs(model.requests[2]!), [{ id: "call_1", text: "ok" }]);
  assert.deepEqual(
    model.main().map((r) => r.step),
    [0, undefined],
  );
});

test("onceListed serves its filler, without using up the entry, until the request lists the tool", async (t) => {
  const listed = (r: { body?: { tools?: { name: string }[] } }) =>
    (r.body?.tools ?? []).some((x) => x.name === "docket");
  const model = await startFakeAnthropic([onceListed(listed, { text: "now" }, { text: "waiting" })]);
  t.after(() => model.close());
  const text = async (tools: { name: string }[]) =>
    events(await post(`${model.url}/v1/messages`, { stream: true, tools, messages: [] })).find(
      (e) => e.type === "content_block_delta",
    ).delta.text;
  assert.equal(await text([{ name: "Read" }]), "waiting");
  assert.equal(await text([{ name: "Read" }]), "waiting");
  assert.equal(await text([{ name: "Read" }, { name: "docket" }]), "now");
  assert.equal(await text([{ name: "docket" }]), "(end of script)");
});
