// Prune and delete against a real ledger and real git worktrees: only settled, old, clean workers go, one at a time,
// and their deliverable sidecars stay.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deleteWorker, pruneWorkers } from "../../../src/engine/workers/delete.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { createIsolatedWorkspace } from "../../../src/substrate/git/worktree.js";
import { gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";
import { addWorker, workLedger } from "../../support/work-ledger.js";
import type { WorkerPatch } from "../../../src/domain/workers/worker.js";

const socket = { DOCKET_TMUX_SOCKET: "docket-test-unused-prune" };

test("prune deletes only workers settled longer than pruneAfterHours, never forces away unpromoted changes, and --dry-run says what it would do and what is too young", (t) => {
  const { ctx, clock } = workLedger(t, { env: socket });
  const repo = gitRepo(tempDir(t));
  const old = addWorker(ctx, "a").worker;
  const recent = addWorker(ctx, "b").worker;
  const failed = addWorker(ctx, "c").worker;
  const dirty = addWorker(ctx, "d").worker;
  const ws = createIsolatedWorkspace({
    root: repo,
    target: join(ctx.home.workerDir(dirty), "workspace"),
    adminName: `docket-${dirty}`,
  });
  writeFileSync(join(ws.path, "change.txt"), "unpromoted\n");
  mkdirSync(join(ctx.home.workerDir(old), "deliverables"), { recursive: true });
  writeFileSync(join(ctx.home.workerDir(old), "deliverables", "v1.json"), "{}");
  const settle = (id: string, state: "ended" | "failed", at: string, extra: WorkerPatch = {}) =>
    ctx.commands.run("test.settle", { id }, (tx) =>
      updateWorker(tx, id, { state, exited: true, settledAt: at, ...extra }),
    );
  settle(old, "ended", "2025-12-30T00:00:00.000Z");
  settle(recent, "ended", "2025-12-31T23:00:00.000Z");
  settle(failed, "failed", "2025-12-01T00:00:00.000Z");
  settle(dirty, "ended", "2025-12-01T00:00:00.000Z", {
    workspace: ws.path,
    workspaceMode: "isolated" as const,
    base: ws.base,
    baseHead: ws.baseHead,
    projectRoot: repo,
  });
  clock.set("2026-01-01T00:00:00.000Z");
  const before = ctx.db.prepare("SELECT * FROM workers").all();
  const dry = pruneWorkers(ctx, { dryRun: true });
  assert.deepEqual(
    { pruned: dry.pruned, skipped: dry.skipped.map((s) => s.worker), young: dry.young },
    {
      pruned: [old],
      skipped: [dirty],
      young: [{ worker: recent, prunableAt: "2026-01-01T23:00:00.000Z", prunableIn: "23h" }],
    },
    "a dry run says what would go, what would stay and what is too young",
  );
  assert.deepEqual(ctx.db.prepare("SELECT * FROM workers").all(), before, "and deletes nothing");
  const r = pruneWorkers(ctx);
  assert.deepEqual(r.pruned, [old]);
  assert.deepEqual(r.skipped, [
    { worker: dirty, reason: `${dirty}'s workspace has changes that were never promoted; nothing was deleted` },
  ]);
  const live = (
    ctx.db.prepare("SELECT id FROM workers WHERE deleted_at IS NULL ORDER BY seq").all() as { id: string }[]
  ).map((x) => x.id);
  assert.deepEqual(live, [recent, failed, dirty]);
  assert.ok(existsSync(join(ctx.home.workerDir(old), "deliverables", "v1.json")), "deliverable sidecars are kept");
  assert.ok(existsSync(join(ws.path, "change.txt")));
});

test("delete off a terminal without --yes refuses and changes nothing", async (t) => {
  const { ctx } = workLedger(t, { env: socket });
  const w = addWorker(ctx).worker;
  const before = ctx.db.prepare("SELECT * FROM workers").all();
  await assert.rejects(deleteWorker(ctx, { worker: w, interactive: false }), {
    code: "confirm-required",
    message: `deleting ${w} needs confirmation; run it on a terminal or pass --yes`,
  });
  await assert.rejects(deleteWorker(ctx, { worker: w, interactive: true, confirm: async () => false }), {
    code: "delete-cancelled",
  });
  assert.deepEqual(ctx.db.prepare("SELECT * FROM workers").all(), before);
  const done = await deleteWorker(ctx, { worker: w, interactive: true, confirm: async () => true });
  assert.equal(done.deleted, true);
});
