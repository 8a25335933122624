// Claim: a review command parses the ref it was given once: the resolver hands the parsed ref down, so on approve,
// verdict, reject, revise, promote, diff, report and comment no text is read by a ref parser twice; a stored record's
// ref (`deliverable:<id>:<v>`, `d<N>`, `last`) is parsed once too, by those verbs and the store's (preview, load, use);
// a card's action (the page's, pi's) parses its subject once and hands the verb the ref.

import { test } from "node:test";
import assert from "node:assert/strict";
import { Command } from "commander";
import { observeRefParses } from "../../../src/domain/deliverables/refs.js";
import type { EngineContext } from "../../../src/engine/context.js";
import { runAction, type ActRequest } from "../../../src/engine/review/card-act.js";
import { approve } from "../../../src/engine/review/judge.js";
import { saveFromWorker } from "../../../src/engine/store/save.js";
import { loadStored } from "../../../src/engine/store/slots.js";
import { lastDecisionOf } from "../../../src/ledger/review/decisions.js";
import type { Io } from "../../../src/surfaces/shared/io.js";
import { VERB_GROUPS } from "../../../src/surfaces/shared/verbs/registry.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";

/**
 * Runs one command line in-process against `ctx`; returns how often each text was read by a ref parser, and what the
 * command threw (a verb that refuses a stored record still read its ref).
 */
async function parsesOf(
  ctx: EngineContext,
  ...args: string[]
): Promise<{ parses: Map<string, number>; error?: Error }> {
  const io: Io = {
    json: args.includes("--json"),
    interactive: false,
    out: () => undefined,
    err: () => undefined,
    confirm: async () => false,
    input: async () => "",
    select: async () => undefined,
  };
  const program = new Command("docket").option("--json").exitOverride();
  for (const group of VERB_GROUPS) (await group.load())(program, io, () => ctx);
  const parses = new Map<string, number>();
  const stop = observeRefParses((text) => parses.set(text, (parses.get(text) ?? 0) + 1));
  try {
    await program.parseAsync(args, { from: "user" });
    return { parses };
  } catch (error) {
    return { parses, error: error as Error };
  } finally {
    stop();
  }
}

/** What went wrong with one card action: its subject not parsed exactly once, or any text parsed twice. */
async function actionParsedTwice(ctx: EngineContext, r: Omit<ActRequest, "lastDecision">): Promise<string[]> {
  const parses = new Map<string, number>();
  const request = { ...r, lastDecision: lastDecisionOf(ctx.db, r.worker)?.id ?? null };
  const stop = observeRefParses((text) => parses.set(text, (parses.get(text) ?? 0) + 1));
  try {
    await runAction(ctx, request);
  } finally {
    stop();
  }
  const what = `card ${r.verb} ${r.worker} v${r.version}`;
  return [
    ...(parses.get(r.worker) === 1 ? [] : [`${what}: ${r.worker} parsed ${parses.get(r.worker) ?? 0} times`]),
    ...[...parses]
      .filter(([text, n]) => text !== r.worker && n > 1)
      .map(([text, n]) => `${what}: ${text} parsed ${n} times`),
  ];
}

/**
 * What went wrong with one command line: the ref it was given not parsed exactly once, any text parsed twice, or a
 * failure where it should succeed (`refused`: the verb refuses this ref, after reading it).
 */
async function parsedTwice(ctx: EngineContext, named: string, ...args: string[]): Promise<string[]> {
  return parsedOnce(ctx, false, named, ...args);
}

async function parsedOnce(ctx: EngineContext, refused: boolean, named: string, ...args: string[]): Promise<string[]> {
  const { parses, error } = await parsesOf(ctx, ...args);
  const line = `docket ${args.join(" ")}`;
  return [
    ...(Boolean(error) === refused ? [] : [`${line}: ${error ? `failed: ${error.message}` : "was not refused"}`]),
    ...(parses.get(named) === 1 ? [] : [`${line}: ${named} parsed ${parses.get(named) ?? 0} times`]),
    ...[...parses]
      .filter(([text, n]) => text !== named && n > 1)
      .map(([text, n]) => `${line}: ${text} parsed ${n} times`),
  ];
}

test("approve and verdict parse the worker id or the exact ref they were given once", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const problems = [
    ...(await parsedTwice(g.ctx, w.worker, "verdict", w.worker, "--json")),
    ...(await parsedTwice(g.ctx, v1.ref, "verdict", v1.ref, "--json")),
    ...(await parsedTwice(g.ctx, w.worker, "verdict", w.worker)),
    ...(await parsedTwice(g.ctx, w.worker, "approve", w.worker)),
    ...(await parsedTwice(g.ctx, v1.ref, "approve", v1.ref)),
  ];
  assert.deepEqual(problems, []);
});

test("the other card verbs parse their ref once too", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const problems = [
    ...(await parsedTwice(g.ctx, v1.ref, "report", v1.ref)),
    ...(await parsedTwice(g.ctx, v1.ref, "diff", v1.ref)),
    ...(await parsedTwice(g.ctx, v1.ref, "comment", v1.ref, "src/app.txt:3", "why three?")),
    ...(await parsedTwice(g.ctx, w.worker, "reject", w.worker, "--note", "not yet")),
    ...(await parsedTwice(g.ctx, w.worker, "revise", w.worker, "try again")),
  ];
  const v2 = publish(g, w, { "src/app.txt": appWith({ 3: "tres" }) });
  problems.push(
    ...(await parsedTwice(g.ctx, w.worker, "verdict", w.worker, "--json")),
    ...(await parsedTwice(g.ctx, v2.ref, "promote", v2.ref, "--approve", "--yes")),
  );
  assert.deepEqual(problems, []);
});

test("a card's approve, reject and promote parse the card's subject once", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const problems = [
    ...(await actionParsedTwice(g.ctx, { verb: "reject", worker: w.worker, version: 1, note: "not yet" })),
    ...(await actionParsedTwice(g.ctx, { verb: "approve", worker: w.worker, version: 1 })),
    ...(await actionParsedTwice(g.ctx, { verb: "promote", worker: w.worker, version: 1, confirm: true })),
  ];
  assert.deepEqual(problems, []);
});

test("a stored ref (deliverable:<id>:<v>, d<N>, last) is parsed once by the verbs that take or refuse one", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  approve(g.ctx, { target: w.worker });
  const saved = saveFromWorker(g.ctx, { from: w.worker });
  const slot = loadStored(g.ctx, saved.ref).slot;
  const problems: string[] = [];
  for (const ref of [saved.ref, slot, "last"]) {
    // A stored record is never judged again, and has no card or worker report of its own: refused, once read.
    for (const line of [
      ["verdict", ref, "--json"],
      ["approve", ref],
      ["reject", ref, "--note", "no"],
      ["revise", ref, "again"],
      ["report", ref],
    ])
      problems.push(...(await parsedOnce(g.ctx, true, ref, ...line)));
    for (const line of [
      ["diff", ref],
      ["preview", ref],
      ["load", ref],
      ["use", ref, "--parent"],
    ])
      problems.push(...(await parsedOnce(g.ctx, false, ref, ...line)));
  }
  problems.push(...(await parsedOnce(g.ctx, false, saved.ref, "promote", saved.ref, "--yes")));
  assert.deepEqual(problems, []);
});
