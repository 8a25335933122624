// The worker protocol through the real engine: done freezes versions once and exactly, fenced generations change nothing.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { done, fail, todos, wait } from "../../../src/engine/protocol/protocol.js";
import { deliverableByRef, workerRefOf } from "../../../src/engine/review/deliverables.js";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import {
  claimDeliverable,
  deliverablePath,
  listDeliverableVersions,
  readDeliverable,
} from "../../../src/files/workers/deliverables.js";
import { hashRunToken, updateWorker } from "../../../src/ledger/workers/workers.js";
import { isDocketError } from "../../../src/domain/errors.js";
import type { WorkerDeliverable } from "../../../src/domain/deliverables/deliverable.js";
import { dumpTables, workLedger } from "../../support/work-ledger.js";
import { isolatedWorker } from "../../support/protocol-worker.js";
import { row, setup } from "./protocol-setup.js";
import { git } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

const BODY = "# Result\r\nLine with trailing spaces   \r\nnon-ASCII: café — ✓ 日本語\n\n  indented\t tab\n";

test("an accepted done freezes v1 before the worker is ready, and the row keeps only the pointer", (t) => {
  const { ctx, w, who } = setup(t);
  writeFileSync(join(w.workspace, "src/app.txt"), "one\n2\nthree\nfour\n");
  writeFileSync(join(w.workspace, "new.md"), "new file\n");
  const r = done(ctx, who, {
    callId: "call-a",
    body: BODY,
    outcome: "completed",
    summary: "changed the app",
    evidence: [{ kind: "test", text: "npm test: 3 pass" }],
    recommendations: ["merge it"],
  });
  assert.deepEqual(r, {
    deliverable: { id: `worker-deliverable:${w.worker}`, version: 1, ref: `worker-deliverable:${w.worker}:1` },
    items: [],
  });
  const worker = row(
    ctx,
    "SELECT state, deliverable_id, deliverable_version, deliverable_ref, summary, outcome FROM workers WHERE id = ?",
    w.worker,
  );
  assert.deepEqual(
    { ...worker },
    {
      state: "ready",
      deliverable_id: `worker-deliverable:${w.worker}`,
      deliverable_version: 1,
      deliverable_ref: `worker-deliverable:${w.worker}:1`,
      summary: "changed the app",
      outcome: "completed",
    },
  );
  const read = readDeliverable(ctx.home, w.worker, 1);
  assert.ok(read.ok);
  assert.equal(read.deliverable.body, BODY, "the body is stored byte for byte");
  assert.equal(read.deliverable.toolCallId, "call-a");
  assert.deepEqual(read.deliverable.changeSet!.files, [
    { path: "new.md", additions: 1, deletions: 0 },
    { path: "src/app.txt", additions: 2, deletions: 1 },
  ]);
  assert.equal(read.deliverable.changeSet!.hunks, 2);
  assert.equal(read.deliverable.changeSet!.base, w.base);
  assert.equal(row(ctx, "SELECT kind FROM notifications WHERE worker = ?", w.worker).kind, "ready");
  const status = JSON.parse(readFileSync(join(ctx.home.workerDir(w.worker), "status.json"), "utf8"));
  assert.deepEqual(status.deliverable, r.deliverable);
  assert.equal(status.body, undefined);
});

test("the same call id returns the same version; a new call id makes the next, and v1 never changes", (t) => {
  const { ctx, w, who } = setup(t);
  writeFileSync(join(w.workspace, "a.txt"), "a\n");
  const first = done(ctx, who, { callId: "call-a", body: "first", outcome: "completed", summary: "s1" });
  const v1Bytes = readFileSync(deliverablePath(ctx.home, w.worker, 1));
  writeFileSync(join(w.workspace, "a.txt"), "a\nb\n");
  const again = done(ctx, who, { callId: "call-a", body: "first (retried)", outcome: "completed", summary: "s1" });
  assert.deepEqual(again, first);
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), [1]);
  const second = done(ctx, who, { callId: "call-b", body: "second", outcome: "findings", summary: "s2" });
  assert.equal(second.deliverable.version, 2);
  assert.deepEqual(readFileSync(deliverablePath(ctx.home, w.worker, 1)), v1Bytes, "v1 is byte-identical after v2");
  assert.equal(row(ctx, "SELECT deliverable_version FROM workers WHERE id = ?", w.worker).deliverable_version, 2);
  assert.equal(deliverableByRef(ctx, workerRefOf(w.worker), 1).deliverable.body, "first");
  assert.equal(deliverableByRef(ctx, workerRefOf(`${w.worker}:v2`)).deliverable.body, "second");
});

test("a corrupt v2.json keeps its number: the next done claims v3 and leaves v2 untouched", (t) => {
  const { ctx, w, who } = setup(t);
  done(ctx, who, { callId: "call-a", body: "first", outcome: "completed", summary: "s1" });
  const corrupt = deliverablePath(ctx.home, w.worker, 2);
  writeFileSync(corrupt, "{ not json");
  const r = done(ctx, who, { callId: "call-b", body: "third", outcome: "completed", summary: "s3" });
  assert.equal(r.deliverable.version, 3);
  assert.equal(readFileSync(corrupt, "utf8"), "{ not json");
  assert.ok(readDeliverable(ctx.home, w.worker, 3).ok);
});

test("a crash between the sidecar and the command is repaired by retrying the same call", (t) => {
  const { ctx, w, who } = setup(t);
  done(ctx, who, { callId: "call-a", body: "first", outcome: "completed", summary: "s1" });
  const orphan: WorkerDeliverable = {
    ...(readDeliverable(ctx.home, w.worker, 1).ok
      ? (readDeliverable(ctx.home, w.worker, 1) as { deliverable: WorkerDeliverable }).deliverable
      : ({} as WorkerDeliverable)),
    version: 2,
    ref: `worker-deliverable:${w.worker}:2`,
    toolCallId: "call-crashed",
    body: "crashed body",
    summary: "crashed",
    changeSet: null,
  };
  assert.equal(claimDeliverable(ctx.home, w.worker, 2, orphan), true, "the sidecar was claimed, then the process died");
  assert.equal(row(ctx, "SELECT deliverable_version FROM workers WHERE id = ?", w.worker).deliverable_version, 1);
  const bytes = readFileSync(deliverablePath(ctx.home, w.worker, 2));
  const r = done(ctx, who, { callId: "call-crashed", body: "crashed body", outcome: "completed", summary: "crashed" });
  assert.equal(r.deliverable.version, 2);
  assert.deepEqual(
    readFileSync(deliverablePath(ctx.home, w.worker, 2)),
    bytes,
    "the claimed sidecar is finished, not rewritten",
  );
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), [1, 2]);
  assert.deepEqual(
    { ...row(ctx, "SELECT deliverable_version, summary, state FROM workers WHERE id = ?", w.worker) },
    { deliverable_version: 2, summary: "crashed", state: "ready" },
  );
});

test("a done from a replaced generation is refused, claims no version and changes nothing", (t) => {
  const { ctx, w, who } = setup(t);
  ctx.commands.run("test.respawn", {}, (tx) =>
    updateWorker(tx, w.worker, { generation: 2, runTokenHash: hashRunToken("token-2") }),
  );
  const before = dumpTables(ctx.db);
  assert.throws(
    () => done(ctx, who, { callId: "call-a", body: "b", outcome: "completed", summary: "s" }),
    (e) =>
      isDocketError(e) &&
      e.category === "fenced" &&
      e.code === "generation-replaced" &&
      e.message.includes("this process was replaced"),
  );
  assert.deepEqual(dumpTables(ctx.db), before);
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), []);
  assert.throws(
    () => wait(ctx, who, { question: "q?" }),
    (e) => isDocketError(e) && e.code === "generation-replaced",
  );
  assert.throws(
    () => fail(ctx, who, { reason: "r" }),
    (e) => isDocketError(e) && e.code === "generation-replaced",
  );
  assert.throws(
    () => todos(ctx, who, [{ text: "x" }]),
    (e) => isDocketError(e) && e.code === "generation-replaced",
  );
  assert.deepEqual(dumpTables(ctx.db), before);
});

test("a done at the current generation with a wrong run token is refused as a token mismatch, not as a replaced process", (t) => {
  const { ctx, w } = setup(t);
  ctx.commands.run("test.respawn", {}, (tx) =>
    updateWorker(tx, w.worker, { generation: 2, runTokenHash: hashRunToken("token-2") }),
  );
  const before = dumpTables(ctx.db);
  assert.throws(
    () =>
      done(
        ctx,
        { worker: w.worker, generation: 2, runToken: "stolen" },
        { callId: "call-x", body: "b", outcome: "completed", summary: "s" },
      ),
    (e) =>
      isDocketError(e) &&
      e.category === "fenced" &&
      e.code === "run-token-mismatch" &&
      /run token does not match/.test(e.message) &&
      !/replaced/.test(e.message),
  );
  assert.deepEqual(dumpTables(ctx.db), before);
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), []);
  assert.equal(
    done(
      ctx,
      { worker: w.worker, generation: 2, runToken: "token-2" },
      { callId: "call-y", body: "b", outcome: "completed", summary: "s" },
    ).deliverable.version,
    1,
  );
});

test("an outcome outside completed|findings|proposal is refused with a line the model can act on, and nothing changes", (t) => {
  const { ctx, w, who } = setup(t);
  const before = dumpTables(ctx.db);
  assert.throws(
    () => done(ctx, who, { callId: "c", body: "b", outcome: "done", summary: "s" }),
    (e) =>
      isDocketError(e) &&
      e.code === "done-outcome-invalid" &&
      e.message ===
        'outcome "done" is not one of completed, findings, proposal; call docket_done again with one of them (per-item words done/released/abandoned/blocked go in items[].outcome)',
  );
  assert.throws(
    () => done(ctx, who, { callId: "c", body: "  ", outcome: "completed" }),
    (e) => isDocketError(e) && e.code === "done-empty",
  );
  assert.throws(
    () =>
      done(ctx, who, {
        callId: "c",
        body: "b",
        outcome: "completed",
        evidence: [{ kind: "vibes" as "note", text: "x" }],
      }),
    (e) => isDocketError(e) && e.code === "evidence-invalid",
  );
  assert.deepEqual(dumpTables(ctx.db), before);
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), []);
});

test("the frozen patch (text, new, deleted, binary and non-UTF-8 files) applies cleanly to the base in a fresh worktree", (t) => {
  const { ctx, w, who } = setup(t);
  writeFileSync(join(w.workspace, "src/app.txt"), "one\nTWO\nthree\n");
  unlinkSync(join(w.workspace, "README.md"));
  mkdirSync(join(w.workspace, "dir with space"), { recursive: true });
  writeFileSync(join(w.workspace, "dir with space/ünï.txt"), "x\n");
  writeFileSync(join(w.workspace, "logo.bin"), Buffer.from([0, 1, 2, 255, 254, 0, 10]));
  writeFileSync(join(w.workspace, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  const r = done(ctx, who, { callId: "c1", body: "b", outcome: "completed", summary: "s" });
  const d = deliverableByRef(ctx, workerRefOf(r.deliverable.ref)).deliverable;
  const fresh = join(tempDir(t, "docket-apply-"), "wt");
  git(w.project, "worktree", "add", "-q", "--detach", fresh, w.base);
  const patchFile = join(fresh, "..", "frozen.patch");
  writeFileSync(patchFile, d.changeSet!.patch);
  git(fresh, "apply", "--check", patchFile);
  git(fresh, "apply", "--index", patchFile);
  assert.deepEqual(readFileSync(join(fresh, "logo.bin")), Buffer.from([0, 1, 2, 255, 254, 0, 10]));
  assert.deepEqual(readFileSync(join(fresh, "latin1.txt")), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  assert.equal(readFileSync(join(fresh, "dir with space/ünï.txt"), "utf8"), "x\n");
  assert.equal(git(fresh, "diff", "--cached", "--stat", w.base).trim() !== "", true);
  assert.equal(d.changeSet!.files.find((f) => f.path === "logo.bin")!.binary, true);
  // One non-UTF-8 file freezes every file as a binary patch; a file that is text at the base is decoded for review.
  assert.deepEqual(
    d.changeSet!.files.find((f) => f.path === "README.md"),
    { path: "README.md", additions: 0, deletions: 1, binary: true, decoded: "@@ -1,1 +0,0 @@\n-hello\n" },
  );
});

test("capture leaves the worker's own index alone: its staged and unstaged state is unchanged", (t) => {
  const { ctx, w, who } = setup(t);
  writeFileSync(join(w.workspace, "staged.txt"), "s\n");
  git(w.workspace, "add", "staged.txt");
  writeFileSync(join(w.workspace, "untracked.txt"), "u\n");
  const status = git(w.workspace, "status", "--porcelain");
  done(ctx, who, { callId: "c1", body: "b", outcome: "completed", summary: "s" });
  assert.equal(git(w.workspace, "status", "--porcelain"), status);
  const files = deliverableByRef(ctx, workerRefOf(w.worker)).deliverable.changeSet!.files.map((f) => f.path);
  assert.deepEqual(files, ["staged.txt", "untracked.txt"]);
});

test("commits the worker made are part of the change set: the diff is against its base, not HEAD", (t) => {
  const { ctx, w, who } = setup(t);
  writeFileSync(join(w.workspace, "committed.txt"), "c\n");
  git(w.workspace, "add", "committed.txt");
  git(w.workspace, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "-m", "work");
  done(ctx, who, { callId: "c1", body: "b", outcome: "completed", summary: "s" });
  assert.deepEqual(
    deliverableByRef(ctx, workerRefOf(w.worker)).deliverable.changeSet!.files.map((f) => f.path),
    ["committed.txt"],
  );
});

test("a read-only worker in a shared workspace publishes with no change set", (t) => {
  const { ctx } = workLedger(t);
  const w = isolatedWorker(t, ctx);
  ctx.commands.run("test.shared", {}, (tx) => updateWorker(tx, w.worker, { workspaceMode: "shared", base: null }));
  const r = done(ctx, w, { callId: "c", body: "findings text", outcome: "findings", summary: "found" });
  assert.equal(deliverableByRef(ctx, workerRefOf(r.deliverable.ref)).deliverable.changeSet, null);
});

test("done sends each item entry through the report path; one refused entry refuses the whole call before any version is frozen", (t) => {
  const { ctx, w, who } = setup(t);
  addItem(ctx, { kind: "todo", text: "first" });
  addItem(ctx, { kind: "todo", text: "second" });
  dispatchItems(ctx, { worker: w.worker, items: ["t1"] });
  const doneWith = (items: { item: string; outcome: string; body: string }[]) =>
    done(ctx, who, { callId: "call-i", body: "b", outcome: "completed", summary: "s", items });
  const before = dumpTables(ctx.db);
  assert.throws(
    () =>
      doneWith([
        { item: "t1", outcome: "done", body: "did it" },
        { item: "t2", outcome: "done", body: "not mine" },
      ]),
    (e: any) =>
      e.code === "no-active-binding" &&
      /^docket_done published nothing — t2: no active binding/.test(e.message) &&
      JSON.stringify(e.details.results.map((r: { status: string }) => r.status)) === '["not-recorded","refused"]',
  );
  assert.throws(() => doneWith([{ item: "t1", outcome: "nope", body: "" }]), {
    code: "report-entry-invalid",
    message: /^docket_done published nothing — t1: a per-item outcome and explanation are required/,
  });
  assert.deepEqual(
    dumpTables(ctx.db),
    before,
    "the version, the worker's state and the accepted entry all stay unwritten",
  );
  assert.deepEqual(listDeliverableVersions(ctx.home, w.worker), [], "no sidecar was claimed for a refused call");
  const r = doneWith([{ item: "t1", outcome: "done", body: "did it" }]);
  assert.deepEqual(r, {
    deliverable: { id: `worker-deliverable:${w.worker}`, version: 1, ref: `worker-deliverable:${w.worker}:1` },
    items: [{ item: "t1", status: "resolved", reportId: "rp1" }],
  });
  assert.equal(row(ctx, "SELECT state FROM items WHERE id = 't1'").state, "done");
  const again = doneWith([{ item: "t1", outcome: "done", body: "did it" }]);
  assert.deepEqual(again, r, "a retried call replays its version and its item reports");
  assert.deepEqual(
    readDeliverable(ctx.home, w.worker, 1).ok &&
      (readDeliverable(ctx.home, w.worker, 1) as { deliverable: WorkerDeliverable }).deliverable.items.map(
        (i) => i.item,
      ),
    ["t1"],
  );
});
