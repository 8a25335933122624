// JSON read from the user is parsed strictly: a `__proto__`, `constructor` or `prototype` key anywhere, or bytes that
// are not UTF-8, refuse the whole input and record nothing (every JSON flag of the worker calls, a --scripted steps
// file). A worker identity is taken exactly (`DOCKET_GENERATION=" 1"` is refused), and 101 evidence entries are one
// too many, with the cap named. Cases are generated: each bad shape in each input.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docket, docketWith, doneArgs, jsonOf } from "../../support/docket-cli.js";
import { isolatedWorker, type ProtocolWorker } from "../../support/protocol-worker.js";
import { tempDir } from "../../support/temp.js";
import { workLedger } from "../../support/work-ledger.js";

const ENTRY = { item: "t1", outcome: "done", body: "did it" };

/** An entry whose body holds these raw bytes. */
const inBody = (bytes: number[]) =>
  Buffer.concat([Buffer.from('[{"item":"t1","outcome":"done","body":"'), Buffer.from(bytes), Buffer.from('"}]')]);

/** Each bad shape, as bytes: a forbidden key at the top, nested, in a list, as a sibling; and malformed UTF-8. */
const BAD: [string, Buffer, RegExp][] = [
  ["__proto__ in an entry", json([{ ...ENTRY, __proto__x: 1 }]).replace("__proto__x", "__proto__"), /"__proto__" key/],
  [
    "__proto__ nested",
    json([{ ...ENTRY, answers: { x: { __proto__x: {} } } }]).replace("__proto__x", "__proto__"),
    /"__proto__" key/,
  ],
  ["constructor", json([{ ...ENTRY, constructor: { prototype: {} } }]), /"(prototype|constructor)" key/],
  [
    "prototype in a list",
    json([{ ...ENTRY, evidence: [{ kind: "note", text: "x", prototype: 1 }] }]),
    /"prototype" key/,
  ],
  [
    "__proto__ around the list",
    json({ items: [ENTRY], __proto__x: [] }).replace("__proto__x", "__proto__"),
    /"__proto__" key/,
  ],
  ["a lone continuation byte", inBody([0x80]), /not valid UTF-8/],
  ["an overlong slash", inBody([0xc0, 0xaf]), /not valid UTF-8/],
  ["a surrogate half", inBody([0xed, 0xa0, 0x80]), /not valid UTF-8/],
  ["a truncated sequence", inBody([0xe2, 0x82]), /not valid UTF-8/],
].map(([name, text, why]) => [
  name as string,
  Buffer.isBuffer(text) ? text : Buffer.from(text as string),
  why as RegExp,
]);

/** The CLI environment of the worker's own process; `generation` is taken as given, to try notations of 1. */
const identityEnv = (home: string, w: ProtocolWorker, generation = "1") =>
  cliEnv({
    DOCKET_HOME: home,
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: generation,
    DOCKET_RUN_TOKEN: w.runToken,
  });

/** A worker holding item t1 (added and dispatched by the human), with its own environment. */
function dispatchedWorker(t: { after(fn: () => void): void }) {
  const { ctx, home } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  const human = (...args: string[]) => docket({ env: cliEnv({ DOCKET_HOME: home }), cwd: home }, ...args);
  jsonOf(human("item", "add", "a todo", "--json"));
  jsonOf(human("dispatch", w.worker, "t1", "--json"));
  return { ctx, w, human, env: identityEnv(home, w) };
}

function json(value: unknown): string {
  return JSON.stringify(value);
}

test("every JSON flag of the worker calls refuses a forbidden key or bad UTF-8, and records nothing", (t) => {
  const { ctx, w, human, env } = dispatchedWorker(t);
  const dir = tempDir(t);
  const flags: [string, string[]][] = [
    ["--file", ["worker", "report"]],
    ["--items-file", doneArgs("s")],
    ["--blocked-file", ["worker", "wait", "--question", "which?"]],
    ["--items-file", ["worker", "todos"]],
  ];
  for (const [flag, base] of flags) {
    for (const [name, bytes, why] of BAD) {
      const file = join(dir, "input.json");
      writeFileSync(file, bytes);
      const r = docketWith({ env, cwd: w.workspace, input: "the body" }, ...base, flag, file, "--json");
      const label = `${base.join(" ")} ${flag} (${name})`;
      assert.equal(r.code, 1, `${label}: ${r.stdout}${r.stderr}`);
      assert.match(r.json?.error?.code ?? "", /^(input|report)-file-invalid$/, `${label}: ${r.stdout}`);
      assert.match(r.json.error.message, why, label);
    }
  }
  const count = (table: string) => (ctx.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  assert.deepEqual([count("reports"), count("questions")], [0, 0]);
  assert.equal(jsonOf(human("show", w.worker, "--json")).deliverable, null, "no version was frozen");
});

test("a --scripted steps file with a forbidden key or bad UTF-8 is refused before anything starts", (t) => {
  const env = cliEnv({ DOCKET_HOME: join(tempDir(t), "home"), HOME: tempDir(t) });
  const dir = tempDir(t);
  const step = { text: "hi", toolCall: { name: "docket_done", arguments: { outcome: "completed", summary: "s" } } };
  const cases: [Buffer, RegExp][] = [
    [
      Buffer.from(
        json([{ ...step, toolCall: { ...step.toolCall, arguments: { __proto__x: {} } } }]).replace(
          "__proto__x",
          "__proto__",
        ),
      ),
      /"__proto__" key/,
    ],
    [Buffer.from(json([{ ...step, constructor: 1 }])), /"constructor" key/],
    [Buffer.concat([Buffer.from('[{"text":"'), Buffer.from([0xff]), Buffer.from('"}]')]), /not valid UTF-8/],
  ];
  for (const [bytes, why] of cases) {
    writeFileSync(join(dir, "steps.json"), bytes);
    const r = jsonOf(docket({ env, cwd: dir }, "spawn", "--scripted", "steps.json", "--dry-run", "--json", "task"), 1);
    assert.equal(r.error.code, "bad-steps-file");
    assert.match(r.error.message, why);
  }
});

test("a worker identity is taken exactly: DOCKET_GENERATION with a space, a sign or another notation is refused", (t) => {
  const { ctx, home } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  for (const generation of [" 1", "1 ", "1\n", "+1", "01", "1e0", "0x1", "1.0", "0", ""]) {
    const r = jsonOf(
      docket({ env: identityEnv(home, w, generation), cwd: w.workspace }, "worker", "todos", "a step", "--json"),
      2,
    );
    assert.equal(r.error.code, "no-worker-identity", JSON.stringify(generation));
  }
  jsonOf(docket({ env: identityEnv(home, w), cwd: w.workspace }, "worker", "todos", "a step", "--json"));
});

test("100 evidence entries are taken and 101 are refused with the cap named, in a report and in a version", (t) => {
  const { w, human, env } = dispatchedWorker(t);
  const evidence = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: "note", text: `fact ${i + 1}` }));
  const file = join(tempDir(t), "report.json");
  for (const [n, code] of [
    [101, 1],
    [150, 1],
  ] as const) {
    writeFileSync(file, json([{ ...ENTRY, evidence: evidence(n) }]));
    const r = jsonOf(docket({ env, cwd: w.workspace }, "worker", "report", "--file", file, "--json"), code);
    assert.equal(r.error.code, "evidence-invalid");
    assert.match(r.error.message, new RegExp(`at most 100 evidence entries; got ${n}`));
    const flags = evidence(n).flatMap((e) => ["--evidence", `${e.kind}=${e.text}`]);
    const done = jsonOf(
      docketWith({ env, cwd: w.workspace, input: "the body" }, ...doneArgs("s"), ...flags, "--json"),
      1,
    );
    assert.match(done.error.message, new RegExp(`at most 100 evidence entries; got ${n}`));
  }
  writeFileSync(file, json([{ ...ENTRY, evidence: evidence(100) }]));
  jsonOf(docket({ env, cwd: w.workspace }, "worker", "report", "--file", file, "--json"));
  assert.equal(jsonOf(human("item", "show", "t1", "--json")).reports.length, 1, "exactly 100 is taken");
});
