// Claim: a stored record's frozen change set is diffable and promotable like a worker version — frozen bytes only,
// bound to the record's carried approval and the ledger's pin, promoted once, and `use --implement`'s advice works.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { docket } from "../../support/docket-cli.js";
import { appWith, gitStatus, groundEnv, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { tmuxServer } from "../../support/tmux.js";

test("use --implement on a stored record with a patch advises promote, and that promote applies exactly the frozen patch once", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 12: "twelve" }) });
  const env = groundEnv(t, g, { DOCKET_TMUX_SOCKET: tmuxServer(t).socket });
  const run = (...args: string[]) => docket({ env, cwd: g.project }, ...args, "--json");
  run("approve", w.worker);
  const ref = run("save", "--from", w.worker).json.ref as string;

  const refused = run("use", ref, "--implement", "--yes");
  assert.equal(refused.json.error.code, "implement-has-patch");
  assert.match(refused.json.error.hint, new RegExp(`\`docket promote ${ref}\``));

  const diff = run("diff", ref);
  assert.equal(diff.code, 0, diff.stderr);
  assert.deepEqual(diff.json, {
    worker: w.worker,
    deliverable: { id: ref.split(":")[1], version: 1, ref },
    patch: run("diff", w.worker).json.patch,
  });

  const promoted = run("promote", ref);
  assert.equal(promoted.code, 0, promoted.stderr + promoted.stdout);
  assert.deepEqual(
    {
      verb: promoted.json.decision.verb,
      deliverable: promoted.json.decision.deliverable,
      files: promoted.json.files,
      workspace: promoted.json.workspace,
    },
    {
      verb: "promote",
      deliverable: { id: ref.split(":")[1], version: 1, ref },
      files: ["src/app.txt"],
      workspace: "stored",
    },
  );
  assert.equal(readFileSync(join(g.project, "src/app.txt"), "utf8"), appWith({ 12: "twelve" }));
  const decision = g.ctx.db
    .prepare("SELECT worker, note, content_sha256 FROM decisions WHERE id = ?")
    .get(promoted.json.decision.id) as { worker: string; note: string; content_sha256: string };
  assert.equal(decision.worker, w.worker);
  assert.match(decision.note, /approved by dc\d+ \(carried by the stored record\)/);
  assert.match(decision.content_sha256, /^[0-9a-f]{64}$/);
  const status = gitStatus(g.project);
  const again = run("promote", ref);
  assert.equal(again.json.error.code, "already-promoted");
  assert.equal(gitStatus(g.project), status);
  assert.equal(
    run("promote", ref, "--approve").json.error.code,
    "approve-stored",
    "--approve is a worker-version flag, never silently ignored",
  );
});
