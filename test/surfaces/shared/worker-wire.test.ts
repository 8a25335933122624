// The single wire schema of the worker protocol: every door lists the same calls, and input is typed by one check.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  DoneWithBodyWire,
  TodoWire,
  WaitWire,
  parseWire,
  workerCalls,
} from "../../../src/surfaces/shared/worker-wire.js";
import { DocketError } from "../../../src/domain/errors.js";

test("both body sources list the same six calls with the same parameters apart from docket_done's body", () => {
  const byMessage = workerCalls("message");
  const byArgument = workerCalls("argument");
  assert.deepEqual(
    Object.values(byMessage).map((c) => c.name),
    ["docket_done", "docket_wait", "docket_todos", "docket_fail", "docket_consult", "docket_note"],
  );
  for (const key of ["wait", "todos", "fail", "consult", "note"] as const)
    assert.deepEqual(byArgument[key], byMessage[key]);
  const withBody = JSON.parse(JSON.stringify(byArgument.done.parameters));
  assert.ok(withBody.required.includes("body"));
  delete withBody.properties.body;
  withBody.required = withBody.required.filter((r: string) => r !== "body");
  assert.deepEqual(withBody, JSON.parse(JSON.stringify(byMessage.done.parameters)));
  assert.match(byMessage.done.description, /same message as this call/);
  assert.match(byArgument.done.description, /`body`: that argument is the deliverable body/);
});

test("enums are flat string enums a model provider accepts", () => {
  const schema = JSON.parse(JSON.stringify(DoneWithBodyWire));
  assert.deepEqual(schema.properties.outcome.enum, ["completed", "findings", "proposal"]);
  assert.equal(schema.properties.outcome.type, "string");
  assert.equal(schema.properties.outcome.anyOf, undefined);
});

test("parseWire returns the typed value and refuses the first wrong field in one line", () => {
  assert.deepEqual(parseWire(TodoWire, { text: "x", state: "pending" }, "board"), { text: "x", state: "pending" });
  assert.throws(
    () => parseWire(WaitWire, { question: "q", blocked: [{ item: "t1" }] }, "docket_wait"),
    (e: unknown) =>
      e instanceof DocketError &&
      e.code === "wire-invalid" &&
      e.message === "docket_wait: blocked.0.body must have required properties body",
  );
  assert.throws(
    () => parseWire(TodoWire, { text: "x", state: "later" }, "todos.json entry 2"),
    (e: unknown) =>
      e instanceof DocketError &&
      /^todos\.json entry 2: state must be equal to one of the allowed values$/.test(e.message),
  );
});

test("consult and note refuse a wrong field in one line, naming the call", () => {
  const calls = workerCalls("argument");
  assert.deepEqual(parseWire(calls.note.parameters, { text: "a shared file moved", to: ["w2"] }, "docket_note"), {
    text: "a shared file moved",
    to: ["w2"],
  });
  assert.throws(
    () => parseWire(calls.consult.parameters, { context: "no question" }, "docket_consult"),
    (e: unknown) => e instanceof DocketError && /^docket_consult: question /.test(e.message),
  );
  assert.equal(calls.consult.endsTurn, true, "a consult ends the turn: the answer arrives as a new message");
  assert.equal(calls.note.endsTurn, false, "a note does not stop the worker");
});

test("docket_done takes an optional addressed list of {comment, note} on every door, and refuses a malformed entry", () => {
  const calls = workerCalls("argument");
  const done = { body: "b", outcome: "completed", summary: "s" };
  assert.deepEqual(
    parseWire(calls.done.parameters, { ...done, addressed: [{ comment: "cm1", note: "renamed" }] }, "docket_done")
      .addressed,
    [{ comment: "cm1", note: "renamed" }],
  );
  assert.equal(parseWire(calls.done.parameters, done, "docket_done").addressed, undefined);
  assert.throws(
    () =>
      parseWire(
        workerCalls("message").done.parameters,
        { outcome: "completed", summary: "s", addressed: [{ comment: "cm1" }] },
        "docket_done",
      ),
    (e: unknown) =>
      e instanceof DocketError && e.message === "docket_done: addressed.0.note must have required properties note",
  );
});
