// Review comments through the real CLI: drafts on lines (new side, old side, whole file) of the current version, a
// refusal for a line outside the frozen patch, one revise sending every draft as one message and one decision, and a
// comment on v1 never sent with v2.

import { test } from "node:test";
import assert from "node:assert/strict";
import { claimInbox } from "../../../src/engine/talk/inbox.js";
import { assertExit, cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { humanCli, appWith, publish, reviewGround, reviewWorker, write } from "../../support/review-fixture.js";
import { ledgerRows } from "../../support/snapshot.js";

test("drafts on new-side lines, an old-side line and a whole file are sent by one revise as one message and one decision", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, {
    "src/app.txt": appWith({ 10: "ten <b>", 11: "eleven" }),
    "src/other.txt": "alpha\nBETA\ngamma\n",
  });
  const run = humanCli(t, g);
  const a = jsonOf(run("comment", w.worker, "src/app.txt:10-11", "rename", "these", "--json"));
  assert.deepEqual(a.comment.anchor, { file: "src/app.txt", side: "new", start: 10, end: 11 });
  assert.deepEqual(a.comment.quoted, ["+ten <b>", "+eleven"]);
  assert.equal(a.comment.state, "draft");
  assert.equal(a.comment.ref, v1.ref);
  const old = jsonOf(run("comment", v1.ref, "src/other.txt:2", "--old", "why drop beta?", "--json"));
  assert.deepEqual(old.comment.quoted, ["-beta"]);
  const whole = assertExit(run("comment", w.worker, "src/other.txt", "needs a test"));
  assert.match(whole.stdout, /cm3 · draft · v1 · src\/other\.txt \(whole file\)/);
  const edited = jsonOf(run("comment", "--edit", old.comment.id, "why", "drop", "beta?", "--json"));
  assert.equal(edited.comment.text, "why drop beta?");
  const scrap = jsonOf(run("comment", w.worker, "src/app.txt:9", "scrap me", "--json"));
  assert.equal(jsonOf(run("comment", "--delete", scrap.comment.id, "--json")).comment.state, "deleted");

  const listed = jsonOf(run("comments", w.worker, "--json"));
  assert.deepEqual(
    listed.comments.filter((c: any) => c.state === "draft").map((c: any) => c.id),
    [a.comment.id, old.comment.id, "cm3"],
  );

  const revised = jsonOf(run("revise", w.worker, "--json"));
  assert.equal(revised.decision.verb, "revise");
  const inbox = claimInbox(g.ctx, { worker: w.worker, generation: w.generation, runToken: w.runToken });
  assert.equal(inbox.length, 1, "one message for all the comments");
  const body = inbox[0]!.body;
  assert.match(body, new RegExp(`^Request revision for ${v1.ref} \\(version 1\\):`));
  assert.match(body, /\[cm1\] src\/app\.txt:10–11 \(new\)\n {2}> \+ten <b>\n {2}> \+eleven\n {2}rename these/);
  assert.match(body, /\[cm2\] src\/other\.txt:2 \(old\)\n {2}> -beta\n {2}why drop beta\?/);
  assert.match(body, /\[cm3\] src\/other\.txt \(whole file\)\n {2}needs a test/);
  assert.doesNotMatch(body, /scrap me/);

  const log = jsonOf(run("log", "--json"));
  const d = log.decisions.find((x: any) => x.id === revised.decision.id);
  assert.deepEqual(
    d.comments.map((c: any) => c.id),
    ["cm1", "cm2", "cm3"],
  );
  assert.match(assertExit(run("log")).stdout, /revise .*\n\s+cm1 src\/app\.txt:10–11 \(new\): rename these/);
  const after = jsonOf(run("comments", v1.ref, "--json"));
  assert.deepEqual(
    after.comments.map((c: any) => [c.id, c.state, c.decision]),
    [
      ["cm1", "sent", d.id],
      ["cm2", "sent", d.id],
      ["cm3", "sent", d.id],
    ],
  );
  const frozen = assertExit(run("comment", "--edit", "cm1", "changed", "--json"), 1);
  assert.equal(frozen.json.error.code, "comment-sent");
});

test("a comment on a line outside the frozen patch, or on a file not in it, is a named refusal that changes nothing", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 10: "ten" }) });
  const run = humanCli(t, g);
  const before = ledgerRows(`${g.home}/ledger.sqlite`);
  const outside = assertExit(run("comment", w.worker, "src/app.txt:30", "nope", "--json"), 1);
  assert.equal(outside.json.error.code, "comment-outside-patch");
  assert.match(
    outside.json.error.message,
    /^line 30 \(new side\) of src\/app\.txt is not in worker-deliverable:w1:1's frozen patch, which shows new-side lines 7–13; nothing changed$/,
  );
  const span = assertExit(run("comment", w.worker, "src/app.txt:12-14", "nope", "--json"), 1);
  assert.match(span.json.error.message, /^line 14 of 12–14 \(new side\)/);
  const missing = assertExit(run("comment", w.worker, "src/other.txt:1", "nope", "--json"), 1);
  assert.equal(missing.json.error.code, "comment-file-not-in-patch");
  const usage = assertExit(run("comment", w.worker, "src/app.txt:9-3", "backwards"), 2);
  assert.match(usage.stderr, /not <file>:<line>\[-<line>\]/);
  assert.deepEqual(ledgerRows(`${g.home}/ledger.sqlite`), before);
});

test("a draft written on v1 is outdated once v2 is published: listed as such, never sent with v2, and v1 takes no new comment", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 10: "ten" }) });
  const run = humanCli(t, g);
  jsonOf(run("comment", w.worker, "src/app.txt:10", "on v1", "--json"));
  const v2 = publish(g, w, { "src/app.txt": appWith({ 10: "ten", 20: "twenty" }) });
  const listed = jsonOf(run("comments", w.worker, "--json"));
  assert.deepEqual(
    listed.comments.map((c: any) => [c.id, c.version, c.outdated]),
    [["cm1", 1, true]],
  );
  assert.match(assertExit(run("comments", w.worker)).stdout, /cm1 · outdated draft \(never sent\) · v1/);
  const late = assertExit(run("comment", v1.ref, "src/app.txt:10", "late", "--json"), 1);
  assert.equal(late.json.error.code, "comment-version-not-current");
  const edit = assertExit(run("comment", "--edit", "cm1", "x", "--json"), 1);
  assert.equal(edit.json.error.code, "comment-outdated");
  jsonOf(run("comment", w.worker, "src/app.txt:20", "on v2", "--json"));
  jsonOf(run("revise", w.worker, "--json"));
  const [m] = claimInbox(g.ctx, { worker: w.worker, generation: w.generation, runToken: w.runToken });
  assert.match(m!.body, new RegExp(`^Request revision for ${v2.ref}`));
  assert.match(m!.body, /\[cm2\] src\/app\.txt:20 \(new\)/);
  assert.doesNotMatch(m!.body, /on v1|cm1/);
  assert.equal(
    jsonOf(run("comments", v1.ref, "--json")).comments[0].state,
    "draft",
    "the v1 draft stays a draft, never sent",
  );
  const empty = assertExit(run("revise", v1.ref, "--json"), 1);
  assert.equal(empty.json.error.code, "empty-note");
});

test("the next version's card shows the sent comments beside their lines, mapped or outdated, with the worker's answers", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 10: "ten", 30: "thirty" }) });
  const run = humanCli(t, g);
  const workerRun = (vars: Record<string, string>, ...args: string[]) =>
    docket(
      { env: cliEnv({ DOCKET_HOME: g.home, HOME: g.home, ...vars }), cwd: w.workspace, input: "Done again.\n" },
      ...args,
    );
  jsonOf(run("comment", w.worker, "src/app.txt:10", "spell it out", "--json"));
  jsonOf(run("comment", w.worker, "src/app.txt:30", "keep this one", "--json"));
  jsonOf(run("revise", w.worker, "tidy", "up", "--json"));
  write(w.workspace, { "src/app.txt": appWith({ 1: "one", 10: "TEN (spelled out)", 30: "thirty" }) });
  const identity = {
    DOCKET_WORKER_ID: w.worker,
    DOCKET_GENERATION: String(w.generation),
    DOCKET_RUN_TOKEN: w.runToken,
  };
  const bad = assertExit(
    workerRun(identity, "worker", "done", "--outcome", "completed", "--addressed", "cm1", "--json"),
    2,
  );
  assert.match(bad.json.error.message, /--addressed takes <comment id>=<note>/);
  const answered = workerRun(
    identity,
    "worker",
    "done",
    "--outcome",
    "completed",
    "--summary",
    "v2",
    "--addressed",
    "cm1=spelled out <now>",
    "--addressed",
    "cm99=not a comment of mine",
    "--json",
  );
  assert.equal(jsonOf(answered).deliverable.version, 2);
  const card = jsonOf(run("verdict", w.worker, "--json"));
  assert.deepEqual(
    card.comments.previous.map((c: any) => [c.id, c.mapped.status, c.addressed]),
    [
      ["cm1", "outdated", "spelled out <now>"],
      ["cm2", "current", null],
    ],
  );
  assert.deepEqual(card.comments.previous[1].mapped.anchor, { file: "src/app.txt", side: "new", start: 30, end: 30 });
  const text = assertExit(run("verdict", w.worker)).stdout;
  assert.match(
    text,
    /Comments on v1 \(sent with dc\d+\)\n {2}cm1 src\/app\.txt:10 \(new\) · outdated: its lines changed\n {4}spell it out\n {4}↳ w1: spelled out <now>\n {2}cm2 src\/app\.txt:30 \(new\) · still at src\/app\.txt:30 \(new\)\n {4}keep this one/,
  );
  assert.doesNotMatch(text, /cm99/);
});
