// JSON columns are read back validated by the ledger: a notification whose for_human was changed outside Docket is
// a named ledger fault, not a JSON syntax error; a question's malformed options show as a question without options.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  insertNotification,
  listPendingNotifications,
  undeliveredNotifications,
} from "../../../src/ledger/talk/notifications.js";
import { insertQuestion } from "../../../src/ledger/workers/questions.js";
import { questionDetail } from "../../../src/ledger/workers/questions.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";

test("a for_human column that is not a JSON list is refused as ledger-column-invalid, naming the row", (t) => {
  const { ctx } = workLedger(t);
  const id = ctx.commands.run("test.note", null, (tx) =>
    insertNotification(tx, { kind: "ready", body: "hello", forHuman: ["a", "b"] }),
  ).result;
  assert.deepEqual(
    listPendingNotifications(ctx.db).map((n) => n.forHuman),
    [["a", "b"]],
  );
  ctx.db.prepare("UPDATE notifications SET for_human = ? WHERE id = ?").run('{"not":"a list"', id);
  const fault = {
    code: "ledger-column-invalid",
    message: new RegExp(`notifications\\.for_human of ${id} is not valid`),
  };
  assert.throws(() => listPendingNotifications(ctx.db), fault);
  assert.throws(() => undeliveredNotifications(ctx.db, ctx.cwd), fault);
});

test("a question's options read as text; a malformed options column reads as no options", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = addWorker(ctx);
  const q = ctx.commands.run("test.q", null, (tx) =>
    insertQuestion(tx, { worker, generation: 1, text: "which?", options: ["one", "two"], risk: "none" }),
  ).result;
  assert.deepEqual(questionDetail(ctx.db, q), {
    options: ["one", "two"],
    recommend: null,
    risk: "none",
    consult: null,
  });
  ctx.db.prepare("UPDATE questions SET options = ? WHERE id = ?").run("not json", q);
  assert.deepEqual(questionDetail(ctx.db, q)?.options, []);
});
