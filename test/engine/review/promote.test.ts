// Promotion applies only an exactly approved frozen patch, confirms conflicts and overlaps, else changes nothing.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { approve } from "../../../src/engine/review/judge.js";
import { planPromotion, promote } from "../../../src/engine/review/promote.js";
import { verdictCard } from "../../../src/engine/review/verdict.js";
import { useForParent } from "../../../src/engine/handoff/use.js";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { git } from "../../support/git.js";
import {
  appWith,
  decisionCount,
  gitStatus,
  publish,
  reviewGround,
  reviewWorker,
} from "../../support/review-fixture.js";
import { codeOf } from "../../support/errors.js";

test("promote and use of an unapproved v2 are refused after v1 was approved, and nothing changes", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  approve(g.ctx, { target: w.worker });
  publish(g, w, { "src/app.txt": appWith({ 3: "three", 9: "nine" }) });
  const status = gitStatus(g.project);
  const before = decisionCount(g.ctx);
  assert.throws(
    () => promote(g.ctx, { target: w.worker }),
    codeOf(
      "not-approved",
      new RegExp(
        `worker-deliverable:${w.worker}:2 is not approved \\(v1 was approved, but an approval never carries over to another version\\); nothing changed`,
      ),
    ),
  );
  assert.throws(
    () => useForParent(g.ctx, { target: w.worker }),
    codeOf("not-approved", /Use needs an approved version/),
  );
  assert.throws(
    () => useForParent(g.ctx, { target: `worker-deliverable:${w.worker}:1` }),
    codeOf("use-not-current", /Use needs the exact current version/),
  );
  assert.equal(gitStatus(g.project), status);
  assert.equal(decisionCount(g.ctx), before);
  assert.equal((g.ctx.db.prepare("SELECT count(*) AS n FROM chips").get() as { n: number }).n, 0);
});

test("promotion applies the frozen patch to the parent and resets the workspace when nothing changed since", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 3: "three" }), "src/new.txt": "brand new\n" });
  approve(g.ctx, { target: w.worker });
  const r = promote(g.ctx, { target: w.worker });
  assert.deepEqual(r.decision, { id: r.decision.id, verb: "promote", worker: w.worker, deliverable: v1 });
  assert.equal(r.approval, null);
  assert.deepEqual(r.files.sort(), ["src/app.txt", "src/new.txt"]);
  assert.equal(readFileSync(join(g.project, "src/app.txt"), "utf8"), appWith({ 3: "three" }));
  assert.equal(readFileSync(join(g.project, "src/new.txt"), "utf8"), "brand new\n");
  assert.equal(git(g.project, "diff", "--cached", "--name-only"), "", "nothing staged in the parent");
  assert.equal(r.workspace, "reset");
  assert.equal(gitStatus(w.workspace), "");
  assert.equal(git(w.workspace, "rev-parse", "HEAD").trim(), w.base);
  assert.throws(() => promote(g.ctx, { target: w.worker }), codeOf("already-promoted"));
  assert.equal(verdictCard(g.ctx, w.worker).actions.includes("promote"), false);
});

test("promotion with a worker that kept editing after done leaves those later edits in its workspace", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  approve(g.ctx, { target: w.worker });
  writeFileSync(join(w.workspace, "src/other.txt"), "alpha\nBETA (later edit)\ngamma\n");
  const r = promote(g.ctx, { target: w.worker });
  assert.equal(r.workspace, "kept-later-edits");
  assert.equal(readFileSync(join(w.workspace, "src/other.txt"), "utf8"), "alpha\nBETA (later edit)\ngamma\n");
  assert.equal(readFileSync(join(w.workspace, "src/app.txt"), "utf8"), appWith({ 3: "three" }));
  assert.equal(readFileSync(join(g.project, "src/app.txt"), "utf8"), appWith({ 3: "three" }));
  assert.equal(
    readFileSync(join(g.project, "src/other.txt"), "utf8"),
    "alpha\nbeta\ngamma\n",
    "the later edit was never frozen, so never promoted",
  );
});

test("a conflicting parent change is refused by git apply --check before any confirmation, naming the file; nothing changes", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "worker three" }) });
  approve(g.ctx, { target: w.worker });
  writeFileSync(join(g.project, "src/app.txt"), appWith({ 3: "parent three" }));
  const status = gitStatus(g.project);
  const bytes = readFileSync(join(g.project, "src/app.txt"));
  const before = decisionCount(g.ctx);
  const plan = planPromotion(g.ctx, { target: w.worker });
  assert.equal(plan.needsConfirmation, true);
  assert.deepEqual(
    plan.warnings.map((x) => x.kind),
    ["parent-moved"],
  );
  for (const yes of [false, true])
    assert.throws(
      () => promote(g.ctx, { target: w.worker, yes }),
      codeOf("patch-does-not-apply", /does not apply to .*: src\/app\.txt \(.+\); nothing changed/),
    );
  assert.equal(gitStatus(g.project), status);
  assert.deepEqual(readFileSync(join(g.project, "src/app.txt")), bytes);
  assert.equal(decisionCount(g.ctx), before);
  assert.equal(gitStatus(w.workspace) !== "", true, "the worker's workspace is untouched");
});

test("promote --approve records the approval and the promotion together, only after the patch applied", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/other.txt": "alpha\nbeta\ngamma\ndelta\n" });
  const r = promote(g.ctx, { target: w.worker, approve: true });
  assert.equal(r.approval?.verb, "approve");
  assert.deepEqual(r.approval?.deliverable, v1);
  const rows = g.ctx.db.prepare("SELECT verb, at FROM decisions ORDER BY seq").all() as { verb: string; at: string }[];
  assert.deepEqual(
    rows.map((x) => x.verb),
    ["approve", "promote"],
  );
  assert.equal(rows[0]!.at, rows[1]!.at, "one command, one time");
});

test("promote --approve that cannot apply records no approval", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/other.txt": "alpha\nBETA\ngamma\n" });
  writeFileSync(join(g.project, "src/other.txt"), "something else entirely\n");
  assert.throws(
    () => promote(g.ctx, { target: w.worker, approve: true, yes: true }),
    codeOf("patch-does-not-apply", /src\/other\.txt/),
  );
  assert.equal(decisionCount(g.ctx), 0);
});

test("overlapping frozen patches of two workers are graded and need confirmation", (t) => {
  const g = reviewGround(t);
  const a = reviewWorker(t, g);
  const b = reviewWorker(t, g);
  publish(g, a, { "src/app.txt": appWith({ 10: "a ten" }), "src/other.txt": "alpha\nbeta\ngamma\nA\n" });
  publish(g, b, { "src/app.txt": appWith({ 10: "b ten" }), "README.md": "hello b\n" });
  approve(g.ctx, { target: a.worker });
  const card = verdictCard(g.ctx, a.worker);
  assert.deepEqual(
    card.warnings.map((x) => x.kind),
    ["overlap", "combine"],
  );
  assert.match(card.warnings[0]!.text, new RegExp(`^contested ${b.worker}: src/app\\.txt`));
  assert.equal(
    card.warnings[1]!.text,
    `Combine with ${b.worker} · change the app · 1 conflict in 1 file`,
    "the card offers Combine with a dry merge's count",
  );
  assert.ok(card.actions.includes(`combine ${b.worker}`));
  assert.throws(() => promote(g.ctx, { target: a.worker }), codeOf("promotion-needs-confirmation", /contested/));
  const r = promote(g.ctx, { target: a.worker, yes: true });
  assert.match(
    g.ctx.db.prepare("SELECT note FROM decisions WHERE id = ?").pluck().get(r.decision.id) as string,
    /confirmed despite: contested/,
  );
});

test("after the overlapping partner is promoted, the other card names the promoted deliverable it collides with", (t) => {
  const g = reviewGround(t);
  const early = reviewWorker(t, g);
  promote(g.ctx, {
    target: publish(g, early, { "src/app.txt": appWith({ 30: "early thirty" }) }).ref,
    approve: true,
    yes: true,
  });
  g.clock.advanceMinutes(1); // promoted before the next two began: it is in their base, not a collision
  const a = reviewWorker(t, g);
  const b = reviewWorker(t, g);
  const landed = publish(g, a, { "src/app.txt": appWith({ 10: "a ten" }) });
  publish(g, b, { "src/app.txt": appWith({ 10: "b ten" }) });
  const r = promote(g.ctx, { target: a.worker, approve: true, yes: true });
  const card = verdictCard(g.ctx, b.worker);
  assert.deepEqual(
    card.warnings.map((x) => x.kind),
    ["overlap", "parent-moved"],
  );
  assert.equal(
    card.warnings[0]!.text,
    `contested ${a.worker}, already promoted (${r.decision.id}): src/app.txt (${landed.ref} · change the app)`,
  );
  // Its patch no longer fits the lines the partner changed: refused as such before any confirmation is asked for.
  assert.throws(() => promote(g.ctx, { target: b.worker, approve: true }), codeOf("patch-does-not-apply"));
});

test("an approved version without a patch cannot be promoted", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, {});
  approve(g.ctx, { target: w.worker });
  assert.throws(() => promote(g.ctx, { target: w.worker }), codeOf("nothing-to-promote"));
});

test("an exactly named older approved version can still be promoted, and the result says it is older", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/other.txt": "alpha\nbeta\ngamma\nv1\n" });
  approve(g.ctx, { target: w.worker });
  publish(g, w, { "src/app.txt": appWith({ 20: "v2" }) });
  assert.throws(() => promote(g.ctx, { target: w.worker, version: 1 }), codeOf("older-version"));
  const r = promote(g.ctx, { target: v1.ref });
  assert.deepEqual(r.decision.deliverable, v1);
  assert.match(r.notes.join("\n"), /older than .* current version v2/);
  assert.equal(r.workspace, "kept-later-edits");
  assert.equal(readFileSync(join(g.project, "src/other.txt"), "utf8"), "alpha\nbeta\ngamma\nv1\n");
  assert.equal(readFileSync(join(g.project, "src/app.txt"), "utf8"), appWith({}), "v2's change was never promoted");
});

test("a tampered (invalid) sidecar is refused by every verb and shown as such on the card; nothing falls back", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const path = join(g.home, "fleet", w.worker, "deliverables", "v1.json");
  const sidecar = JSON.parse(readFileSync(path, "utf8"));
  sidecar.version = 7;
  writeFileSync(path, JSON.stringify(sidecar));
  assert.throws(
    () => approve(g.ctx, { target: w.worker }),
    codeOf("deliverable-invalid", /restore it or ask the worker to publish a new version/),
  );
  assert.throws(() => promote(g.ctx, { target: w.worker, approve: true, yes: true }), codeOf("deliverable-invalid"));
  assert.throws(() => useForParent(g.ctx, { target: w.worker }), codeOf("deliverable-invalid"));
  const card = verdictCard(g.ctx, w.worker);
  assert.equal(card.approved, false);
  assert.match(card.warnings.map((x) => x.text).join("\n"), /missing or invalid/);
  assert.equal(decisionCount(g.ctx), 0);
  assert.equal(readFileSync(join(g.project, "src/app.txt"), "utf8"), appWith({}));
});

test("a promotion whose worker still holds items it never reported says so, and how to settle them", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const items = [
    addItem(g.ctx, { kind: "todo", text: "change the app" }).id,
    addItem(g.ctx, { kind: "todo", text: "and its test" }).id,
  ];
  dispatchItems(g.ctx, { worker: w.worker, items });
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  approve(g.ctx, { target: w.worker });
  const r = promote(g.ctx, { target: w.worker });
  assert.ok(
    r.notes.includes(
      `${w.worker} still holds ${items.join(", ")} without a report: they stay open and owed; ask it to report (\`docket tell ${w.worker} "report ${items.join(", ")}"\`) or see \`docket obligations\``,
    ),
    r.notes.join("\n"),
  );
});
