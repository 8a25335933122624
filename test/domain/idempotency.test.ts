// Claim: every idempotency key comes from one builder, namespaced per tool, and no call id can forge another tool's key.
import { test } from "node:test";
import assert from "node:assert/strict";
import { idempotencyKey, optionalKey } from "../../src/domain/idempotency.js";

test("the same call id under two tools, two workers or two items gives four different keys", () => {
  const keys = [
    idempotencyKey({ tool: "wait", worker: "w1", callId: "c1", item: "t1" }),
    idempotencyKey({ tool: "done", worker: "w1", callId: "c1", item: "t1" }),
    idempotencyKey({ tool: "done", worker: "w2", callId: "c1", item: "t1" }),
    idempotencyKey({ tool: "done", worker: "w1", callId: "c1", item: "t2" }),
  ];
  assert.equal(new Set(keys).size, 4);
  assert.equal(keys[1], "done/w1/c1/t1");
  assert.notEqual(
    idempotencyKey({ tool: "done", worker: "w1", callId: "c1" }),
    keys[1],
    "a whole call and one of its items never share a key",
  );
});

test("a call id holding separators cannot collide with another worker's or item's key", () => {
  const forged = idempotencyKey({ tool: "done", worker: "w1", callId: "c1/t1" });
  assert.notEqual(forged, idempotencyKey({ tool: "done", worker: "w1", callId: "c1", item: "t1" }));
  assert.notEqual(
    idempotencyKey({ tool: "report", callId: "w1/k" }),
    idempotencyKey({ tool: "report", worker: "w1", callId: "k" }),
  );
});

test("no call id means no key; a human verb's key has no worker", () => {
  assert.equal(optionalKey({ tool: "item.add", callId: undefined }), undefined);
  assert.equal(optionalKey({ tool: "item.add", callId: "" }), undefined);
  assert.equal(optionalKey({ tool: "item.add", callId: "k1" }), "item.add//k1");
});
