// Claim: a promotion killed between `git apply` and its ledger command leaves the patch applied and unrecorded, and the
// retry recognises exactly that frozen patch (reverse-apply check) and records it then — never applying it twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { approve } from "../../../src/engine/review/judge.js";
import { promote } from "../../../src/engine/review/promote.js";
import { ledgerAt } from "../../support/ledger.js";
import { appWith, gitStatus, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { waitFor } from "../../support/wait.js";

const CHILD = fileURLToPath(new URL("../../support/promote-child.js", import.meta.url));

test("a promotion killed after git apply but before its command is recorded by the retry, not refused as not applying", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 30: "thirty" }) });
  approve(g.ctx, { target: w.worker });
  const child = spawn(process.execPath, [CHILD, w.worker], {
    env: { ...process.env, DOCKET_HOME: g.home },
    cwd: g.project,
    stdio: ["pipe", "pipe", "inherit"],
  });
  t.after(() => child.kill("SIGKILL"));
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  // Hold the ledger's write lock: the child applies the patch, then blocks on its command; it is killed right there.
  const blocker = ledgerAt(g.home);
  t.after(() => blocker.close());
  blocker.exec("BEGIN IMMEDIATE");
  child.stdin!.write("go\n");
  const app = join(g.project, "src/app.txt");
  // git apply replaces the file (unlink, then write): a read in between finds no file yet, which is "not applied yet".
  const holds = (): boolean => {
    try {
      return readFileSync(app, "utf8") === appWith({ 30: "thirty" });
    } catch {
      return false;
    }
  };
  await waitFor("the child to apply the frozen patch to the checkout", holds, 60_000, 10);
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  blocker.exec("ROLLBACK");

  const applied = gitStatus(g.project);
  assert.match(applied, /src\/app\.txt/, "the checkout holds the patch");
  const promotions = () =>
    g.ctx.db.prepare("SELECT id, note, content_sha256 FROM decisions WHERE verb = 'promote'").all() as {
      id: string;
      note: string;
    }[];
  assert.deepEqual(promotions(), [], "the kill left no promotion recorded");

  const r = promote(g.ctx, { target: w.worker, yes: true });
  assert.equal(r.decision.verb, "promote");
  assert.deepEqual(r.decision.deliverable, v1);
  assert.match(
    r.notes.join("\n"),
    /already held exactly the frozen patch of .* \(an interrupted promotion\); recorded the promotion now, nothing applied twice/,
  );
  assert.match(promotions()[0]!.note, /recorded on retry: the checkout already held exactly this frozen patch/);
  assert.equal(readFileSync(app, "utf8"), appWith({ 30: "thirty" }), "the patch was not applied a second time");
  assert.equal(gitStatus(g.project), applied);
  assert.throws(() => promote(g.ctx, { target: w.worker, yes: true }), { code: "already-promoted" });
});
