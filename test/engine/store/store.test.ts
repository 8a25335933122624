// The store saves only an exactly approved current version, idempotently, with provenance; refusals write nothing.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDocketError } from "../../../src/domain/errors.js";
import type { EngineContext } from "../../../src/engine/context.js";
import { saveAuthored, saveFromWorker, workerStoredId } from "../../../src/engine/store/save.js";
import { listStoredDeliverables, refreshStoreIndex, reindexStore } from "../../../src/engine/store/catalog.js";
import { deleteStored, loadStored, previewStored, unloadStored } from "../../../src/engine/store/slots.js";
import { storedForUse } from "../../../src/engine/handoff/store-use.js";
import { listLegacy } from "../../../src/engine/store/legacy.js";
import { requireWorker } from "../../../src/ledger/workers/workers.js";
import { DIRTY, setStamp } from "../../../src/ledger/store/store-index.js";
import { claimFile } from "../../../src/files/atomic.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";
import {
  anchorWorkerRecord,
  approvedWorker,
  decide,
  PATCH,
  publishVersion,
  writeLegacyBundles,
} from "../../support/stored.js";

function dump(ctx: EngineContext): unknown {
  const rows = (table: string) => ctx.db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
  return { stored: rows("stored_deliverables"), slots: rows("slots"), decisions: rows("decisions") };
}

const count = (ctx: EngineContext, sql: string): number => (ctx.db.prepare(sql).get() as { n: number }).n;

const storeFiles = (ctx: EngineContext): string[] =>
  existsSync(ctx.home.deliverables)
    ? readdirSync(ctx.home.deliverables).flatMap((d) =>
        readdirSync(join(ctx.home.deliverables, d)).map((f) => `${d}/${f}`),
      )
    : [];

function authorFile(ctx: EngineContext, name: string, text: string): string {
  const path = join(ctx.cwd, name);
  writeFileSync(path, text);
  return path;
}

test("an exactly approved current worker version is saved with body, patch, evidence, review notes, approval and provenance", (t) => {
  const { ctx } = workLedger(t);
  const { worker, pointer, decisionId } = approvedWorker(ctx);
  const saved = saveFromWorker(ctx, { from: worker });
  const id = workerStoredId(worker, requireWorker(ctx.db, worker).createdAt);
  assert.deepEqual(
    { ref: saved.ref, id: saved.id, version: saved.version, idempotent: saved.idempotent },
    { ref: `deliverable:${id}:1`, id, version: 1, idempotent: false },
  );
  assert.match(id, /^worker-w1-[0-9a-f]{10}$/);
  const record = JSON.parse(readFileSync(saved.path, "utf8"));
  assert.equal(record.body, "Body of v1\r\n  trailing  \nünïcode ✓\n");
  assert.equal(record.changeSet.patch, PATCH);
  assert.deepEqual(record.evidence, [{ kind: "test", text: "npm test: 12 passed" }]);
  assert.deepEqual(
    record.reviewNotes.map((n: { text: string }) => n.text),
    ["tighten the wording"],
  );
  assert.deepEqual(record.approval, {
    kind: "worker",
    decisionId,
    decidedAt: record.approval.decidedAt,
    verb: "approve",
    actor: "human",
    deliverable: pointer,
  });
  assert.deepEqual(record.source.deliverable, pointer);
  assert.equal(count(ctx, "SELECT count(*) AS n FROM decisions WHERE verb = 'save'"), 1);
});

test("saving the same worker version again is idempotent, says so, and writes nothing new", (t) => {
  const { ctx, clock } = workLedger(t);
  const { worker } = approvedWorker(ctx);
  const first = saveFromWorker(ctx, { from: worker });
  const bytes = readFileSync(first.path);
  clock.advanceMinutes(5);
  const again = saveFromWorker(ctx, { from: `worker-deliverable:${worker}:1` });
  assert.equal(again.idempotent, true);
  assert.equal(again.ref, first.ref);
  assert.deepEqual(readFileSync(first.path), bytes);
  assert.equal(storeFiles(ctx).length, 1);
  assert.equal(count(ctx, "SELECT count(*) AS n FROM decisions WHERE verb = 'save'"), 1);
});

test("an unapproved version is refused with the reason and nothing changes", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = addWorker(ctx);
  publishVersion(ctx, worker, 1);
  const before = dump(ctx);
  assert.throws(
    () => saveFromWorker(ctx, { from: worker }),
    (e: unknown) =>
      isDocketError(e) &&
      e.code === "not-approved" &&
      e.message ===
        `worker-deliverable:${worker}:1 is not approved for saving: it has no approval on this exact version`,
  );
  assert.deepEqual(dump(ctx), before);
  assert.deepEqual(storeFiles(ctx), []);
});

test("a rejection after an approval revokes it, and a parent-agent approval never counts", (t) => {
  const { ctx } = workLedger(t);
  const { worker, pointer } = approvedWorker(ctx);
  decide(ctx, worker, pointer, "reject");
  assert.throws(
    () => saveFromWorker(ctx, { from: worker }),
    (e: unknown) => isDocketError(e) && e.code === "not-approved" && /it was rejected \(dc\d+\)/.test(e.message),
  );
  assert.throws(
    () => decide(ctx, worker, pointer, "approve", { actor: "parent-agent" }),
    (e: unknown) => isDocketError(e) && e.code === "parent-agent-cannot-judge",
  );
  assert.throws(
    () => saveFromWorker(ctx, { from: worker }),
    (e: unknown) => isDocketError(e) && e.code === "not-approved",
  );
  assert.deepEqual(storeFiles(ctx), []);
});

test("a superseded version is refused even when it was approved, and the newer one needs its own approval", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = approvedWorker(ctx);
  publishVersion(ctx, worker, 2);
  const before = dump(ctx);
  assert.throws(
    () => saveFromWorker(ctx, { from: `worker-deliverable:${worker}:1` }),
    (e: unknown) =>
      isDocketError(e) &&
      e.code === "deliverable-superseded" &&
      e.message ===
        `worker-deliverable:${worker}:1 is superseded by v2; only the current version of ${worker} can be saved`,
  );
  assert.throws(
    () => saveFromWorker(ctx, { from: worker }),
    (e: unknown) =>
      isDocketError(e) && e.code === "not-approved" && e.message.startsWith(`worker-deliverable:${worker}:2 `),
  );
  assert.deepEqual(dump(ctx), before);
  decide(
    ctx,
    worker,
    { id: `worker-deliverable:${worker}`, version: 2, ref: `worker-deliverable:${worker}:2` },
    "approve",
  );
  assert.equal(saveFromWorker(ctx, { from: worker }).version, 2);
});

test("a human-authored record is v1, carries a synthetic human-authorship approval, and is immediately usable", (t) => {
  const { ctx } = workLedger(t);
  const body = "# Proposal\r\nDo the thing  \nünï\n";
  const saved = saveAuthored(ctx, { bodyFile: authorFile(ctx, "p.md", body), outcome: "proposal" });
  assert.match(saved.id, /^human-\d{17}-[0-9a-f]{12}$/);
  assert.equal(saved.version, 1);
  const use = storedForUse(ctx, saved.ref);
  assert.equal(use.body, body);
  assert.deepEqual(use.approval, {
    kind: "human",
    decisionId: `human-authorship:${saved.id}`,
    decidedAt: use.approval.decidedAt,
  });
  assert.equal(use.provenance.sourceRef, saved.ref);
  assert.equal(use.record.summary, "# Proposal");
});

test("a bad outcome or an empty body is refused before anything is written", (t) => {
  const { ctx } = workLedger(t);
  const before = dump(ctx);
  assert.throws(
    () => saveAuthored(ctx, { bodyFile: authorFile(ctx, "a.md", "x"), outcome: "done" }),
    (e: unknown) =>
      isDocketError(e) &&
      e.code === "bad-outcome" &&
      e.message === 'outcome must be one of completed, findings, proposal; got "done"',
  );
  assert.throws(
    () => saveAuthored(ctx, { bodyFile: authorFile(ctx, "b.md", " \n\n"), outcome: "findings" }),
    (e: unknown) => isDocketError(e) && e.code === "author-empty",
  );
  assert.throws(
    () => saveAuthored(ctx, { bodyFile: join(ctx.cwd, "missing.md"), outcome: "findings" }),
    (e: unknown) => isDocketError(e) && e.code === "input-unreadable",
  );
  assert.deepEqual(dump(ctx), before);
  assert.deepEqual(storeFiles(ctx), []);
});

test("listing reads the ledger index, not the files, when nothing changed; --reindex rebuilds it from the files", (t) => {
  const { ctx } = workLedger(t);
  const saved = saveAuthored(ctx, { bodyFile: authorFile(ctx, "a.md", "first\n"), outcome: "findings" });
  assert.deepEqual(
    listStoredDeliverables(ctx).deliverables.map((d) => d.summary),
    ["first"],
  );
  // Rewrite the file in place: no directory changes, so the index is trusted and nothing is parsed.
  const record = JSON.parse(readFileSync(saved.path, "utf8"));
  writeFileSync(saved.path, JSON.stringify({ ...record, summary: "edited behind our back" }));
  assert.deepEqual(refreshStoreIndex(ctx), { rescanned: 0, walked: false });
  assert.deepEqual(
    listStoredDeliverables(ctx).deliverables.map((d) => d.summary),
    ["first"],
  );
  ctx.db.exec("DELETE FROM stored_deliverables; DELETE FROM store_stamps;");
  assert.deepEqual(reindexStore(ctx), { records: 1, unsupported: 0 });
  assert.deepEqual(
    listStoredDeliverables(ctx).deliverables.map((d) => d.summary),
    ["edited behind our back"],
  );
});

test("records written by another tool are found, and a newer-schema file is listed as unsupported with path and reason", (t) => {
  const { ctx } = workLedger(t);
  saveAuthored(ctx, { bodyFile: authorFile(ctx, "a.md", "ours\n"), outcome: "findings" });
  listStoredDeliverables(ctx);
  const anchorId = "worker-fix-auth-bug-a1b2-0123456789";
  mkdirSync(join(ctx.home.deliverables, anchorId));
  writeFileSync(
    join(ctx.home.deliverables, anchorId, "v2.json"),
    JSON.stringify(anchorWorkerRecord(anchorId), null, 2),
  );
  mkdirSync(join(ctx.home.deliverables, "human-99-future"));
  const futurePath = join(ctx.home.deliverables, "human-99-future", "v1.json");
  writeFileSync(futurePath, JSON.stringify({ schemaVersion: 7, id: "human-99-future", version: 1 }));
  mkdirSync(join(ctx.home.deliverables, "..evil"));
  writeFileSync(join(ctx.home.deliverables, "..evil", "v1.json"), "{}");
  const listing = listStoredDeliverables(ctx);
  assert.deepEqual(
    listing.deliverables.map((d) => d.id).sort(),
    [anchorId, listing.deliverables.find((d) => d.id.startsWith("human-"))!.id].sort(),
  );
  assert.deepEqual(
    listing.unsupported.map((u) => ({ path: u.path, reason: u.reason })),
    [{ path: futurePath, reason: "newer-schema" }],
  );
  assert.throws(
    () => loadStored(ctx, "deliverable:human-99-future:1"),
    (e: unknown) =>
      isDocketError(e) &&
      e.code === "stored-unsupported" &&
      e.message.includes(futurePath) &&
      e.message.includes("newer-schema"),
  );
});

test("a save that crashed after its claim is healed by the next list (the id was marked dirty first)", (t) => {
  const { ctx } = workLedger(t);
  const saved = saveAuthored(ctx, { bodyFile: authorFile(ctx, "a.md", "one\n"), outcome: "findings" });
  listStoredDeliverables(ctx);
  const id = "worker-fix-auth-bug-a1b2-0123456789";
  mkdirSync(join(ctx.home.deliverables, id));
  listStoredDeliverables(ctx); // the new directory is now known, still empty
  ctx.commands.run("test.dirty", null, (tx) => setStamp(tx, id, DIRTY));
  claimFile(join(ctx.home.deliverables, id, "v2.json"), JSON.stringify(anchorWorkerRecord(id)));
  assert.deepEqual(
    listStoredDeliverables(ctx)
      .deliverables.map((d) => d.ref)
      .sort(),
    [saved.ref, `deliverable:${id}:2`].sort(),
  );
});

test("load mounts a d<N> slot once per ref, unload frees it, and slot numbers are never reused", (t) => {
  const { ctx } = workLedger(t);
  const a = saveAuthored(ctx, { bodyFile: authorFile(ctx, "a.md", "a\n"), outcome: "findings" });
  assert.deepEqual(loadStored(ctx, "last"), { slot: "d1", ref: a.ref, created: true });
  assert.deepEqual(loadStored(ctx, a.id), { slot: "d1", ref: a.ref, created: false });
  assert.equal(previewStored(ctx, "d1").body, "a\n");
  assert.deepEqual(unloadStored(ctx, "d1"), { slot: "d1", ref: a.ref, unloaded: true });
  assert.deepEqual(unloadStored(ctx, "d1"), { slot: "d1", ref: a.ref, unloaded: false });
  assert.throws(
    () => previewStored(ctx, "d1"),
    (e: unknown) => isDocketError(e) && e.code === "slot-not-loaded",
  );
  assert.equal(loadStored(ctx, a.ref).slot, "d2");
  assert.throws(
    () => unloadStored(ctx, "d9"),
    (e: unknown) => isDocketError(e) && e.code === "slot-not-found",
  );
});

test("delete needs confirmation, then removes exactly one version and unloads its slot", (t) => {
  const { ctx } = workLedger(t);
  const { worker } = approvedWorker(ctx);
  const v1 = saveFromWorker(ctx, { from: worker });
  publishVersion(ctx, worker, 2);
  decide(
    ctx,
    worker,
    { id: `worker-deliverable:${worker}`, version: 2, ref: `worker-deliverable:${worker}:2` },
    "approve",
  );
  const v2 = saveFromWorker(ctx, { from: worker });
  loadStored(ctx, v1.ref);
  const before = dump(ctx);
  assert.throws(
    () => deleteStored(ctx, v1.ref, { confirmed: false }),
    (e: unknown) =>
      isDocketError(e) && e.code === "confirmation-required" && e.message === `deleting ${v1.ref} needs confirmation`,
  );
  assert.deepEqual(dump(ctx), before);
  assert.deepEqual(deleteStored(ctx, v1.ref, { confirmed: true }), {
    ref: v1.ref,
    deleted: [v1.path],
    unloadedSlots: 1,
  });
  assert.deepEqual(
    listStoredDeliverables(ctx).deliverables.map((d) => d.ref),
    [v2.ref],
  );
  assert.equal(existsSync(v2.path), true);
});

test("an anchor schema-1 record upgrades on read and can be loaded, previewed and used", (t) => {
  const { ctx } = workLedger(t);
  const id = "worker-fix-auth-bug-a1b2-0123456789";
  mkdirSync(join(ctx.home.deliverables, id), { recursive: true });
  const path = join(ctx.home.deliverables, id, "v2.json");
  writeFileSync(path, JSON.stringify(anchorWorkerRecord(id), null, 2));
  const bytes = readFileSync(path);
  assert.deepEqual(loadStored(ctx, id), { slot: "d1", ref: `deliverable:${id}:2`, created: true });
  const use = storedForUse(ctx, "d1");
  assert.equal(use.body, "## Plan\n1. Fix the token check files: src/auth.ts\n");
  assert.deepEqual(
    { kind: use.approval.kind, decisionId: use.approval.decisionId },
    { kind: "worker", decisionId: "d-18" },
  );
  assert.equal(use.provenance.sourceWorker, "fix-auth-bug-a1b2");
  assert.deepEqual(readFileSync(path), bytes, "reading never rewrites an old record");
});

test("legacy bundles list, load, preview, unload and delete, but can never be used for a handoff", (t) => {
  const { ctx } = workLedger(t);
  writeLegacyBundles(ctx.home);
  assert.deepEqual(
    listLegacy(ctx).map((b) => b.ref),
    ["checkpoint:ckpt-auth"],
  );
  assert.deepEqual(loadStored(ctx, "checkpoint:ckpt-auth"), { slot: "d1", ref: "checkpoint:ckpt-auth", created: true });
  const preview = previewStored(ctx, "d1");
  assert.equal(preview.kind, "legacy");
  assert.equal(preview.body, "# Auth checkpoint\n\nWhere we left the auth work.\n");
  assert.throws(
    () => storedForUse(ctx, "checkpoint:ckpt-auth"),
    (e: unknown) =>
      isDocketError(e) &&
      e.code === "legacy-not-usable" &&
      e.message === "checkpoint:ckpt-auth is a legacy checkpoint bundle; bundles cannot be used for a reviewed handoff",
  );
  assert.equal(unloadStored(ctx, "d1").unloaded, true);
  deleteStored(ctx, "ckpt-auth", { confirmed: true });
  assert.deepEqual(listLegacy(ctx), []);
  assert.deepEqual(storeFiles(ctx), [], "nothing was written in the store either");
});

test("an ambiguous prefix is refused naming the candidates; an unknown name is not found", (t) => {
  const { ctx } = workLedger(t);
  saveAuthored(ctx, { bodyFile: authorFile(ctx, "a.md", "a\n"), outcome: "findings" });
  saveAuthored(ctx, { bodyFile: authorFile(ctx, "b.md", "b\n"), outcome: "findings" });
  assert.throws(
    () => loadStored(ctx, "human-"),
    (e: unknown) => isDocketError(e) && e.code === "ambiguous-ref" && /matches 2 stored deliverables/.test(e.message),
  );
  assert.throws(
    () => loadStored(ctx, "nothing-like-it"),
    (e: unknown) => isDocketError(e) && e.code === "stored-not-found",
  );
  assert.throws(
    () => loadStored(ctx, "deliverable:../../etc:1"),
    (e: unknown) => isDocketError(e) && e.code === "stored-not-found",
  );
  assert.equal(count(ctx, "SELECT count(*) AS n FROM slots"), 0);
});

test("a list that runs while a save holds an id's lock keeps that id dirty, so what the save claims is seen next time", (t) => {
  const { ctx } = workLedger(t);
  const id = "worker-fix-auth-bug-a1b2-0123456789";
  mkdirSync(join(ctx.home.deliverables, id, ".lock"), { recursive: true }); // a save in flight (or a crashed one)
  listStoredDeliverables(ctx);
  assert.equal(
    (ctx.db.prepare("SELECT stamp FROM store_stamps WHERE name = ?").get(id) as { stamp: string }).stamp,
    DIRTY,
  );
  claimFile(join(ctx.home.deliverables, id, "v2.json"), JSON.stringify(anchorWorkerRecord(id)));
  rmSync(join(ctx.home.deliverables, id, ".lock"), { recursive: true });
  assert.deepEqual(
    listStoredDeliverables(ctx).deliverables.map((d) => d.ref),
    [`deliverable:${id}:2`],
  );
  assert.notEqual(
    (ctx.db.prepare("SELECT stamp FROM store_stamps WHERE name = ?").get(id) as { stamp: string }).stamp,
    DIRTY,
  );
});
