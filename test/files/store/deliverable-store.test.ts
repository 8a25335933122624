// The store's files: a version is claimed once and never overwritten; scans classify entries and skip unsafe ones.

import { storedRef } from "../../../src/domain/deliverables/refs.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { homeLayout } from "../../../src/files/home.js";
import {
  deleteStoredVersion,
  readStoredVersion,
  saveStoredVersion,
  scanStore,
  scanStoredIds,
  storedVersionPath,
} from "../../../src/files/store/deliverable-store.js";
import { withDirLock } from "../../../src/files/store/dir-lock.js";
import { isDocketError } from "../../../src/domain/errors.js";
import type { StoredDeliverable } from "../../../src/domain/store/stored-deliverable.js";
import { tempDir } from "../../support/temp.js";
import { anchorWorkerRecord } from "../../support/stored.js";

function record(id: string, version = 1, body = "hello\n"): StoredDeliverable {
  const worker = id.startsWith("worker-");
  const pointer = { id: "worker-deliverable:w1", version, ref: `worker-deliverable:w1:${version}` };
  return {
    schemaVersion: 2,
    id,
    version,
    ref: storedRef(id, version),
    createdAt: "2026-01-01T00:00:00.000Z",
    savedAt: "2026-01-01T00:00:00.000Z",
    body,
    summary: "hello",
    outcome: "completed",
    evidence: [],
    recommendations: [],
    refs: [],
    items: [],
    changeSet: null,
    source: worker
      ? { kind: "worker", workerId: "w1", deliverable: pointer, task: "t", createdAt: "2026-01-01T00:00:00.000Z" }
      : { kind: "human", createdAt: "2026-01-01T00:00:00.000Z" },
    reviewNotes: [],
    approval: worker
      ? {
          kind: "worker",
          decisionId: "dc1",
          decidedAt: "2026-01-01T00:00:00.000Z",
          verb: "approve",
          actor: "human",
          deliverable: pointer,
        }
      : {
          kind: "human",
          decisionId: `human-authorship:${id}`,
          decidedAt: "2026-01-01T00:00:00.000Z",
          reason: "human-authorship",
        },
    handoffProvenance: null,
  };
}

const sameWorker = (r: StoredDeliverable) => r.source.kind === "worker" && r.source.workerId === "w1";

test("a version is claimed once; saving the same source again is idempotent and replaces nothing", (t) => {
  const home = homeLayout(tempDir(t));
  const first = saveStoredVersion(home, record("worker-w1-0123456789"), sameWorker);
  assert.equal(first.idempotent, false);
  const bytes = readFileSync(first.path);
  const again = saveStoredVersion(
    home,
    { ...record("worker-w1-0123456789"), savedAt: "2026-02-02T00:00:00.000Z" },
    sameWorker,
  );
  assert.equal(again.idempotent, true);
  assert.equal(again.record.savedAt, "2026-01-01T00:00:00.000Z");
  assert.deepEqual(readFileSync(first.path), bytes);
});

test("a claimed version with other content is never overwritten and the error names the file", (t) => {
  const home = homeLayout(tempDir(t));
  const first = saveStoredVersion(home, record("human-1-aa"), () => false);
  const bytes = readFileSync(first.path);
  assert.throws(
    () => saveStoredVersion(home, record("human-1-aa", 1, "other\n"), () => false),
    (e: unknown) =>
      isDocketError(e) &&
      e.code === "store-version-exists" &&
      e.message.includes(first.path) &&
      e.message.includes("never overwritten"),
  );
  assert.deepEqual(readFileSync(first.path), bytes);
});

test("a corrupt v2.json makes a save of v2 fail naming the file, and its bytes stay identical", (t) => {
  const home = homeLayout(tempDir(t));
  const path = storedVersionPath(home, "worker-w1-0123456789", 2);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "{ torn wri");
  assert.throws(
    () => saveStoredVersion(home, record("worker-w1-0123456789", 2), sameWorker),
    (e: unknown) =>
      isDocketError(e) &&
      e.code === "store-version-corrupt" &&
      e.message.includes(path) &&
      /invalid or corrupt/.test(e.message),
  );
  assert.equal(readFileSync(path, "utf8"), "{ torn wri");
  assert.deepEqual(readdirSync(join(path, "..")).sort(), ["v2.json"]);
});

test("a newer-schema file in a version's place is never overwritten and the reason is given", (t) => {
  const home = homeLayout(tempDir(t));
  const path = storedVersionPath(home, "human-1-aa", 1);
  mkdirSync(join(path, ".."), { recursive: true });
  const future = JSON.stringify({ ...record("human-1-aa"), schemaVersion: 9 });
  writeFileSync(path, future);
  assert.throws(
    () => saveStoredVersion(home, record("human-1-aa"), () => true),
    (e: unknown) => isDocketError(e) && e.code === "store-version-unsupported" && /newer-schema/.test(e.message),
  );
  assert.equal(readFileSync(path, "utf8"), future);
});

test("scans skip dot entries, unsafe names and unrelated files, list symlinks as unreadable, and classify the rest", (t) => {
  const root = tempDir(t);
  const home = homeLayout(root);
  saveStoredVersion(home, record("human-1-aa"), () => false);
  const outside = join(root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "v1.json"), JSON.stringify(record("human-1-aa")));
  mkdirSync(join(home.deliverables, ".hidden"), { recursive: true });
  writeFileSync(join(home.deliverables, ".hidden", "v1.json"), "{}");
  mkdirSync(join(home.deliverables, "bad name"), { recursive: true });
  writeFileSync(join(home.deliverables, "bad name", "v1.json"), "{}");
  symlinkSync(outside, join(home.deliverables, "linked"));
  writeFileSync(join(home.deliverables, "stray.json"), "{}");
  writeFileSync(join(home.deliverables, "human-1-aa", "notes.txt"), "x");
  writeFileSync(join(home.deliverables, "human-1-aa", "v01.json"), "{}");
  writeFileSync(join(home.deliverables, "human-1-aa", ".v3.json.tmp"), "{}");
  symlinkSync(join(outside, "v1.json"), join(home.deliverables, "human-1-aa", "v2.json"));
  mkdirSync(join(home.deliverables, "human-2-bb"));
  writeFileSync(
    join(home.deliverables, "human-2-bb", "v1.json"),
    JSON.stringify({ ...record("human-2-bb"), schemaVersion: 3 }),
  );
  assert.deepEqual(scanStoredIds(home).sort(), ["human-1-aa", "human-2-bb", "linked"]);
  const files = scanStore(home).map((f) => ({
    id: f.id,
    version: f.version,
    reason: f.classification.status === "ok" ? "ok" : f.classification.reason,
  }));
  assert.deepEqual(
    files.sort((a, b) => a.id.localeCompare(b.id) || a.version - b.version),
    [
      { id: "human-1-aa", version: 1, reason: "ok" },
      { id: "human-1-aa", version: 2, reason: "symlink" },
      { id: "human-2-bb", version: 1, reason: "newer-schema" },
      { id: "linked", version: 1, reason: "symlink" },
    ],
  );
});

test("a record whose content claims another id than its directory reads as invalid", (t) => {
  const home = homeLayout(tempDir(t));
  mkdirSync(join(home.deliverables, "human-9-zz"), { recursive: true });
  writeFileSync(join(home.deliverables, "human-9-zz", "v1.json"), JSON.stringify(record("human-1-aa")));
  const read = readStoredVersion(home, "human-9-zz", 1);
  assert.equal(read.state, "present");
  assert.equal(
    read.state === "present" && read.classification.status === "unsupported" && read.classification.reason,
    "invalid",
  );
});

test("an anchor schema-1 file reads as an upgraded record", (t) => {
  const home = homeLayout(tempDir(t));
  const id = "worker-fix-auth-bug-a1b2-0123456789";
  mkdirSync(join(home.deliverables, id), { recursive: true });
  writeFileSync(join(home.deliverables, id, "v2.json"), JSON.stringify(anchorWorkerRecord(id), null, 2));
  const read = readStoredVersion(home, id, 2);
  assert.equal(read.state === "present" && read.classification.status, "ok");
});

test("delete removes exactly one version, and the directory only when it is empty", (t) => {
  const home = homeLayout(tempDir(t));
  saveStoredVersion(home, record("worker-w1-0123456789", 1), sameWorker);
  saveStoredVersion(home, record("worker-w1-0123456789", 2), sameWorker);
  deleteStoredVersion(home, "worker-w1-0123456789", 1);
  assert.deepEqual(readdirSync(join(home.deliverables, "worker-w1-0123456789")), ["v2.json"]);
  deleteStoredVersion(home, "worker-w1-0123456789", 2);
  assert.equal(existsSync(join(home.deliverables, "worker-w1-0123456789")), false);
  assert.throws(
    () => deleteStoredVersion(home, "worker-w1-0123456789", 2),
    (e: unknown) => isDocketError(e) && e.code === "stored-not-found",
  );
});

test("a held lock makes a second writer wait and then give up with a conflict naming the lock", (t) => {
  const dir = tempDir(t);
  withDirLock(dir, () => {
    assert.throws(
      () => withDirLock(dir, () => 1, { timeoutMs: 60, pollMs: 10 }),
      (e: unknown) => isDocketError(e) && e.code === "store-locked" && e.message.includes(join(dir, ".lock")),
    );
  });
  assert.equal(
    withDirLock(dir, () => 2),
    2,
  );
});

test("a stale lock (older than staleMs) is taken over; a fresh one is waited for", (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, ".lock"));
  assert.throws(
    () => withDirLock(dir, () => 1, { timeoutMs: 50, staleMs: 30_000 }),
    (e: unknown) => isDocketError(e) && e.code === "store-locked",
  );
  assert.equal(existsSync(join(dir, ".lock")), true);
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(join(dir, ".lock"), old, old);
  assert.equal(
    withDirLock(dir, () => "taken", { timeoutMs: 200 }),
    "taken",
  );
  assert.equal(existsSync(join(dir, ".lock")), false);
  assert.deepEqual(readdirSync(dir), []);
});
