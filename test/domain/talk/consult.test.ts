// The consult lane's pure rules: the window, what the parent agent reads, and how its reply is read (answer, decline).

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  formatConsultRequest,
  formatTranscript,
  isConsultExpired,
  parseConsultReply,
} from "../../../src/domain/talk/consult.js";
import { resolveConfig } from "../../../src/domain/config.js";

test("a consult expires once it waited the whole window", () => {
  const at = "2026-01-01T00:00:00.000Z";
  assert.equal(isConsultExpired(at, Date.parse(at) + 89_999, 90), false);
  assert.equal(isConsultExpired(at, Date.parse(at) + 90_000, 90), true);
});

test("only an answer call with text answers; an escalate call, plain text, an empty answer or a failed model all decline with a reason", () => {
  assert.deepEqual(
    parseConsultReply({ content: [{ type: "toolCall", name: "docket_answer", arguments: { answer: " 8080 " } }] }),
    { kind: "answer", text: "8080" },
  );
  assert.deepEqual(
    parseConsultReply({ content: [{ type: "toolCall", name: "docket_escalate", arguments: { reason: "scope" } }] }),
    { kind: "decline", reason: "your pi session's model declined: scope" },
  );
  assert.deepEqual(parseConsultReply({ content: [{ type: "text", text: "probably 8080" }] }), {
    kind: "decline",
    reason: "your pi session's model gave no answer",
  });
  assert.deepEqual(
    parseConsultReply({ content: [{ type: "toolCall", name: "docket_answer", arguments: { answer: "" } }] }),
    { kind: "decline", reason: "your pi session's model gave no answer" },
  );
  assert.deepEqual(parseConsultReply({ content: [], stopReason: "error", errorMessage: "401" }), {
    kind: "decline",
    reason: "your pi session's model failed: 401",
  });
});

test("the request carries the session's words (newest kept when long) and the consult, marked as data", () => {
  const transcript = formatTranscript(
    [
      { role: "user", text: "old ".repeat(100) },
      { role: "assistant", text: "we use port 8080" },
    ],
    60,
  );
  assert.equal(transcript, "Assistant: we use port 8080");
  const text = formatConsultRequest(
    {
      id: "q3",
      worker: "w2",
      task: "ship it",
      text: "which port?",
      context: null,
      options: ["80", "8080"],
      recommend: "8080",
      risk: null,
    },
    transcript,
    () => "n0nce123",
  );
  assert.match(text, /<session-n0nce123>\nAssistant: we use port 8080\n<\/session-n0nce123>/);
  assert.match(
    text,
    /<consult-n0nce123 id="q3" worker="w2">\nWorker task: "ship it"\nQuestion: "which port\?"\nOptions it offers: 1\) "80" 2\) "8080"\nIt recommends: "8080"\n<\/consult-n0nce123>/,
  );
});

test("the consult lane is the user's to turn on: a project config cannot, and the window has a floor of 5 s", () => {
  const fromProject = resolveConfig({}, { messaging: { autoAnswer: true } });
  assert.equal(fromProject.config.messaging.autoAnswer, false);
  assert.match(
    fromProject.warnings.join("\n"),
    /project config messaging ignored: only your user config may change the consult lane/,
  );
  const mine = resolveConfig({ messaging: { autoAnswer: true, consultWindowSeconds: 1 } }, undefined);
  assert.deepEqual(mine.config.messaging, { autoAnswer: true, consultWindowSeconds: 5 });
  assert.deepEqual(resolveConfig(undefined, undefined).config.messaging, {
    autoAnswer: false,
    consultWindowSeconds: 90,
  });
});
