// Claim: a combine killed between the merge and its ledger command leaves nothing half-made — no combination, no
// decision, both sources still open, the human's checkout untouched — and running it again finishes it, reusing the
// version it had frozen (clean) or replacing the scratch folder nobody recorded (conflicts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDocketError } from "../../../src/domain/errors.js";
import { combineChangeSets, continueCombine } from "../../../src/engine/review/combine.js";
import { verdictCard, verdictQueue } from "../../../src/engine/review/verdict.js";
import { checkoutFingerprint, pairGround, publishBoth, type Pair } from "../../support/combine-fixture.js";
import { ledgerAt } from "../../support/ledger.js";
import { appWith } from "../../support/review-fixture.js";
import { waitFor } from "../../support/wait.js";

const CHILD = fileURLToPath(new URL("../../support/combine-child.js", import.meta.url));
type T = { after(fn: () => void): void };

/** Runs the child's combine with the ledger's write lock held, waits for `made` (its file, written before its command), kills it. */
async function killBeforeCommand(t: T, p: Pair, made: () => boolean, what: string): Promise<void> {
  const child = spawn(process.execPath, [CHILD, "w1", "w2"], {
    env: { ...process.env, DOCKET_HOME: p.g.home },
    cwd: p.g.project,
    stdio: ["pipe", "pipe", "inherit"],
  });
  t.after(() => child.kill("SIGKILL"));
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  const blocker = ledgerAt(p.g.home);
  t.after(() => blocker.close());
  blocker.exec("BEGIN IMMEDIATE");
  child.stdin!.write("go\n");
  await waitFor(what, made, 60_000, 10);
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));
  blocker.exec("ROLLBACK");
}

function nothingRecorded(p: Pair): void {
  const db = p.g.ctx.db;
  assert.deepEqual(db.prepare("SELECT id FROM combinations").all(), [], "no combination row");
  assert.deepEqual(db.prepare("SELECT id FROM decisions WHERE verb LIKE 'combine%'").all(), [], "no combine decision");
  assert.deepEqual(
    verdictQueue(p.g.ctx)
      .map((c) => c.worker)
      .sort(),
    ["w1", "w2"],
    "both sources still wait for judgment",
  );
}

test("a clean combine killed after freezing its version and before recording it is finished by the retry, with the same version", async (t) => {
  const p = pairGround(t, { "src/app.txt": appWith({}) });
  publishBoth(p, { "src/app.txt": appWith({ 2: "two" }) }, { "src/app.txt": appWith({ 33: "thirty-three" }) });
  const before = checkoutFingerprint(p.g.project);
  const sidecar = join(p.g.home, "combined", "w1-w2", "v1.json");
  // Frozen: the version is claimed and its temp file gone (the child then waits for the ledger's write lock).
  const frozen = () =>
    existsSync(sidecar) && readdirSync(join(p.g.home, "combined", "w1-w2")).every((n) => !n.endsWith(".tmp"));
  await killBeforeCommand(t, p, frozen, "the child to freeze combined:w1+w2:1");

  nothingRecorded(p);
  assert.deepEqual(checkoutFingerprint(p.g.project), before, "the human's checkout is untouched");
  assert.throws(
    () => verdictCard(p.g.ctx, "combined:w1+w2:1"),
    (e: unknown) => isDocketError(e) && e.code === "combined-unrecorded",
    "an unrecorded version is never offered for judgment",
  );

  const r = combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] });
  assert.equal(r.outcome, "combined");
  if (r.outcome === "combined")
    assert.equal(r.deliverable.ref, "combined:w1+w2:1", "the orphan version is reused, not a v2 beside it");
  assert.deepEqual(readdirSync(join(p.g.home, "combined", "w1-w2")), ["v1.json"]);
  assert.equal(
    (p.g.ctx.db.prepare("SELECT count(*) AS n FROM decisions WHERE verb = 'combine'").get() as { n: number }).n,
    2,
  );
});

test("a conflicting combine killed after writing its scratch folder and before recording it leaves a stray folder the retry replaces", async (t) => {
  const p = pairGround(t, { "src/app.txt": appWith({}) });
  publishBoth(p, { "src/app.txt": appWith({ 7: "seven by w1" }) }, { "src/app.txt": appWith({ 7: "seven by w2" }) });
  const before = checkoutFingerprint(p.g.project);
  const scratch = join(p.g.home, "combine");
  const folders = () => (existsSync(scratch) ? readdirSync(scratch).filter((n) => !n.startsWith(".")) : []);
  await killBeforeCommand(t, p, () => folders().length === 1, "the child to write its scratch folder");

  nothingRecorded(p);
  assert.deepEqual(checkoutFingerprint(p.g.project), before);
  const stray = folders()[0]!;
  assert.throws(
    () => continueCombine(p.g.ctx),
    (e: unknown) => isDocketError(e) && e.code === "no-combine-pending",
    "an unrecorded folder is never frozen",
  );
  const r = combineChangeSets(p.g.ctx, { sources: ["w1", "w2"] });
  assert.equal(r.outcome, "conflicts");
  if (r.outcome === "conflicts") assert.deepEqual(folders(), [r.scratch.split("/").pop()]);
  assert.equal(folders().includes(stray), false, "the unrecorded folder is gone");
  assert.equal(
    (p.g.ctx.db.prepare("SELECT count(*) AS n FROM combinations WHERE state = 'resolving'").get() as { n: number }).n,
    1,
  );
});
