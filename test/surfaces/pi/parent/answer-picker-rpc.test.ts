// `/docket answer w1` without text in a real pi parent offers the worker's options as pi's picker and records the
// one picked; a cancelled picker answers nothing; off a terminal `docket answer w1` is a usage error naming the fix.

import { test } from "node:test";
import assert from "node:assert/strict";
import { parentFixture as parent } from "../../../support/pi-parent.js";
import type { PiRpc } from "../../../support/pi-rpc.js";
import { assertExit, jsonOf } from "../../../support/docket-cli.js";

async function slash(pi: PiRpc, text: string) {
  const from = pi.seen.length;
  const r = await pi.call({ type: "prompt", message: text });
  assert.equal(r.success, true, `${text}: ${JSON.stringify(r)}`);
  return pi.seen.slice(from).filter((m) => m.type === "extension_ui_request");
}

test("/docket answer w1 with no text picks from the offered options and records that answer", async (t) => {
  const p = parent(t);
  const pi = p.start();
  await pi.call({ type: "get_state" });
  await slash(pi, "/docket spawn --agent command --cmd 'sleep 600' --yes a worker with a question");
  const ask = () =>
    assertExit(
      p.asWorker("w1", "worker", "wait", "--question", "which database?", "--option", "sqlite", "--option", "postgres"),
    );
  ask();

  pi.answerNext({ cancelled: true });
  const cancelled = await slash(pi, "/docket answer w1");
  assert.ok(
    cancelled.some((m) => m.method === "notify" && /nothing was picked; q1 is still open/.test(String(m.message))),
    JSON.stringify(cancelled),
  );
  assert.deepEqual(jsonOf(p.cli("log", "--json")).decisions, [], "a cancelled picker answers nothing");

  pi.answerNext({ value: "postgres" });
  const picked = await slash(pi, "/docket answer w1");
  const select = picked.find((m) => m.method === "select");
  assert.ok(select, JSON.stringify(picked));
  assert.match(select.title, /w1 asks \(q1\): which database\?/);
  assert.deepEqual(select.options, ["sqlite", "postgres", "something else (type it)"]);
  const decisions = jsonOf(p.cli("log", "--json")).decisions;
  assert.deepEqual(
    decisions.map((d: any) => [d.verb, d.option]),
    [["answer", "postgres"]],
  );

  ask();
  pi.answerNext({ value: "something else (type it)" });
  pi.answerNext({ value: "mysql, after all" });
  const typed = await slash(pi, "/docket answer w1");
  assert.ok(
    typed.some((m) => m.method === "input"),
    JSON.stringify(typed),
  );
  assert.deepEqual(
    jsonOf(p.cli("log", "--json"))
      .decisions.map((d: any) => d.option)
      .sort(),
    ["mysql, after all", "postgres"],
  );

  ask();
  const off = jsonOf(p.cli("answer", "w1", "--json"), 2).error;
  assert.equal(off.code, "missing-answer");
  assert.match(off.hint, /docket answer <w> <text>/);
  assert.equal(await pi.close(), 0);
});
