// The advice test's ground: workers, items and stored records in the states its refusals need, and how a refusal and the
// commands it advises are read from a CLI run or an engine call.

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDocketError } from "../../src/domain/errors.js";
import { resolveReviewTarget } from "../../src/engine/review/target.js";
import { workerRefOf } from "../../src/engine/review/deliverables.js";
import { addItem, editItem } from "../../src/engine/work/items.js";
import { dispatchItems } from "../../src/engine/work/dispatch.js";
import { updateWorker } from "../../src/ledger/workers/workers.js";
import type { CliRun } from "./docket-cli.js";
import { appWith, publish, reviewWorker, type ReviewGround } from "./review-fixture.js";
import { writeLegacyBundles } from "./stored.js";
import { addWorker } from "./work-ledger.js";

type T = { after(fn: () => void): void };

/** `tell ${w} "<text>"` → ["tell", "${w}", "\"<text>\""]: spaces split, except inside `${…}` and quotes. */
export function tokens(command: string): string[] {
  return command.replace(/^docket /, "").match(/"[^"]*"|\$\{[^}]*\}\S*|\S+/g) ?? [];
}

/** Codes that mean "the command did not understand what it was told": wrong kind of argument, unknown name, bad flag. */
export const NOT_UNDERSTOOD = new Set([
  "usage",
  "bad-flag",
  "bad-flags",
  "bad-deliverable-ref",
  "bad-worker-id",
  "bad-use-source",
  "bad-item-id",
  "bad-chip-id",
  "empty-ref",
  "worker-not-found",
  "item-not-found",
  "stored-not-found",
  "legacy-not-found",
  "slot-not-found",
  "slot-not-loaded",
  "no-such-version",
  "version-mismatch",
  "version-stored",
]);

export interface Refused {
  code: string;
  message: string;
  hint?: string;
}

/** A refusal in the one shape every verb uses: exit 1 and exactly one `{"error":{code, message, …}}` line on stdout. */
export function refusedOf(r: CliRun): Refused {
  assert.equal(r.code, 1, `expected a refusal, got exit ${r.code}: ${r.stdout} ${r.stderr}`);
  assert.equal(r.stdout.trimEnd().split("\n").length, 1, r.stdout);
  assert.deepEqual(Object.keys(r.json), ["error"], r.stdout);
  assert.deepEqual(Object.keys(r.json.error).slice(0, 2), ["code", "message"], r.stdout);
  return r.json.error as Refused;
}

export function engineRefusal(fn: () => unknown): Refused {
  try {
    fn();
  } catch (error) {
    if (isDocketError(error)) return { code: error.code, message: error.message, hint: error.hint };
    throw error;
  }
  assert.fail("expected a refusal");
}

/** The concrete commands a refusal names, placeholders filled with plain text. */
export function advisedCommands(r: Refused): string[][] {
  return [...`${r.message} ${r.hint ?? ""}`.matchAll(/`docket ([^`]+)`/g)].map((m) =>
    tokens(m[1]!).map((w) => w.replace(/^"(.*)"$/, "$1").replace(/^<(text|note)>$/, "hello")),
  );
}

export interface Case {
  /** `src/…/file.ts#code`: the refusal site(s) this case reproduces. */
  covers: string;
  refuse: () => Refused;
  /** The advised command must succeed outright (exit 0), not merely be understood. */
  succeeds?: boolean;
  /** Worker commands run with that worker's identity. */
  env?: Record<string, string>;
}

/** Workers, items and stored records in the states the refusals above need. */
export function ground(t: T, g: ReviewGround, run: (args: string[], env?: Record<string, string>) => CliRun) {
  const mk = () => reviewWorker(t, g);
  const unjudged = mk();
  publish(g, unjudged, { "src/app.txt": appWith({ 3: "three" }) });
  // A worker with an unjudged patch of its own, for each refusal whose advice approves it.
  const spare = [mk(), mk(), mk()].map((w, i) => {
    publish(g, w, { "src/app.txt": appWith({ [20 + i]: "changed" }) });
    return w.worker;
  });
  const fresh = () => spare.shift()!;
  const olderW = mk();
  const v1 = publish(g, olderW, { "src/app.txt": appWith({ 7: "seven" }) });
  const staleTarget = resolveReviewTarget(g.ctx, workerRefOf(olderW.worker));
  publish(g, olderW, { "src/app.txt": appWith({ 7: "seven", 8: "eight" }) });
  const proposalW = mk();
  publish(g, proposalW, {}, "## Goal\nA plan\n");
  const patch = mk();
  publish(g, patch, { "src/other.txt": "alpha\nBETA\ngamma\n" });
  assert.equal(run(["approve", patch.worker]).code, 0);
  const forStore = mk();
  publish(g, forStore, { "docs/notes.txt": "notes, revised\n" });
  run(["approve", forStore.worker]);
  const storedPatch = run(["save", "--from", forStore.worker]).json.ref as string;
  const body = join(g.home, "authored.md");
  writeFileSync(body, "Findings: the cache is never invalidated.\n");
  const storedAuthored = run(["save", "--author", body, "--outcome", "findings"]).json.ref as string;
  writeLegacyBundles(g.ctx.home);
  // An approved version and a saved record, each rewritten afterwards (approval binds content).
  const rewritten = mk();
  publish(g, rewritten, { "README.md": "hello, rewritten\n" });
  run(["approve", rewritten.worker]);
  const rewrittenRecord = run(["save", "--from", rewritten.worker]).json as { id: string; ref: string };
  for (const file of [
    join(g.home, "fleet", rewritten.worker, "deliverables", "v1.json"),
    join(g.home, "deliverables", rewrittenRecord.id, "v1.json"),
  ]) {
    const d = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, `${JSON.stringify({ ...d, summary: `${d.summary} (edited)` }, null, 2)}\n`);
  }
  // Two workers changing the same line differently: Combine stops on a conflict and waits for the human.
  const clash = [mk(), mk()].map((w, i) => {
    publish(g, w, { "src/app.txt": appWith({ 30: `thirty, way ${i}` }) });
    return w.worker;
  }) as [string, string];
  const idle = mk().worker;
  // A draft comment left on v1 when v2 appeared (outdated), and one sent with a revise (never changes again).
  const commented = mk();
  publish(g, commented, { "src/app.txt": appWith({ 12: "twelve" }) });
  const outdated = run(["comment", commented.worker, "src/app.txt:12", "x"]).json.comment.id as string;
  publish(g, commented, { "src/app.txt": appWith({ 12: "twelve", 13: "thirteen" }) });
  const sender = mk();
  publish(g, sender, { "src/app.txt": appWith({ 14: "fourteen" }) });
  const sent = run(["comment", sender.worker, "src/app.txt:14", "x"]).json.comment.id as string;
  assert.equal(run(["revise", sender.worker]).code, 0);
  // An exited command worker (tmux-free until respawned) for the respawn advice.
  const exited = addWorker(g.ctx, "token-exited").worker;
  g.ctx.commands.run("test.exited", null, (tx) => updateWorker(tx, exited, { exited: true, exitCode: 0 }));
  // Items dispatched to `unjudged`: t1 edited from outside (revision moved), t2 without replies, t3 for the exited worker.
  for (const text of ["one", "two", "three"]) addItem(g.ctx, { kind: "todo", text });
  dispatchItems(g.ctx, { worker: unjudged.worker, items: ["t1", "t2"] });
  editItem(g.ctx, { id: "t1", text: "one, changed elsewhere", external: true });
  const identity = {
    DOCKET_WORKER_ID: unjudged.worker,
    DOCKET_GENERATION: String(unjudged.generation),
    DOCKET_RUN_TOKEN: unjudged.runToken,
  };
  return {
    unjudged,
    fresh,
    patch,
    identity,
    idle,
    exited,
    storedPatch,
    storedAuthored,
    proposal: proposalW.worker,
    clash,
    comments: { outdated, sent },
    older: { worker: olderW.worker, v1, staleTarget },
    tampered: { worker: rewritten.worker, stored: rewrittenRecord.ref },
  };
}
