// Real pi workers (scripted model) under sandbox "required": a plan-gated one is refused edit/write until the human answers
// its plan and the card flags what it changed before; a read-only one cannot write your checkout; off, its card says it did.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AS_CONFIGURED, cliEnv, docket } from "../support/docket-cli.js";
import { gitRepo } from "../support/git.js";
import { scriptedPi, type ScriptedPi, scriptedModelFlags } from "../support/scripted-pi.js";
import { tempDir } from "../support/temp.js";
import { waitFor } from "../support/wait.js";

const SLOW = 120_000;

function setup(t: { after(fn: () => void): void }, sandbox: string) {
  const pi = scriptedPi(t);
  // No readOnlyPaths: the steps file under /tmp is shown to a scripted worker because the human named it (DOCKET_SCRIPTED_MODEL).
  writeFileSync(join(pi.vars.DOCKET_HOME, "config.json"), JSON.stringify({ sandbox: { mode: sandbox } }));
  const repo = join(tempDir(t, "docket-repo-"), "repo");
  mkdirSync(repo);
  gitRepo(repo, { "a.txt": "one\n" });
  const run = (...args: string[]) => docket({ env: cliEnv({ ...pi.vars, ...AS_CONFIGURED }), cwd: repo }, ...args);
  const shown = (w: string) => run("show", w, "--json").json;
  return { pi, repo, run, shown };
}

function spawnPi(
  s: { pi: ScriptedPi; run: (...a: string[]) => any },
  kind: string,
  name: string,
  steps: unknown[],
): string {
  const script = s.pi.script(`${name}.json`, steps);
  const r = s.run("spawn", "--as", kind, ...scriptedModelFlags(script), "--yes", "--json", name);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  return r.json.worker;
}

test("a contained plan-gated pi worker's write is refused until the human answers its plan, then works; the card flags what bash changed before", {
  timeout: 360_000,
}, async (t) => {
  const s = setup(t, "required");
  const w = spawnPi(s, "patcher", "gated", [
    { toolCall: { name: "write", id: "early-write", arguments: { path: "plan-first.txt", content: "too early\n" } } },
    { toolCall: { name: "bash", id: "early-bash", arguments: { command: "echo early > early.txt" } } },
    {
      toolCall: {
        name: "docket_wait",
        id: "plan",
        arguments: { question: "Plan: write plan-first.txt with one line. OK?" },
      },
    },
    {
      toolCall: { name: "write", id: "late-write", arguments: { path: "plan-first.txt", content: "after the plan\n" } },
    },
    {
      text: "Wrote plan-first.txt as planned.",
      toolCall: {
        name: "docket_done",
        id: "done",
        arguments: { outcome: "completed", summary: "wrote it", evidence: [], recommendations: [], items: [] },
      },
    },
    { text: "done" },
  ]);
  const ws = join(s.pi.vars.DOCKET_HOME, "fleet", w, "workspace");
  await waitFor(`${w} waiting for its plan's answer`, () => s.shown(w)?.state === "needs_input", SLOW);
  assert.equal(s.shown(w).contained, true);
  assert.equal(existsSync(join(ws, "plan-first.txt")), false, "the write before the plan was refused");
  assert.equal(
    readFileSync(join(ws, "early.txt"), "utf8"),
    "early\n",
    "bash is not a gated tool; the card reports what it did",
  );
  const session = sessionText(join(s.pi.vars.DOCKET_HOME, "fleet", w, "session"));
  assert.match(session, /Refused by Docket: your plan gate is armed[^"]*docket_wait/);

  assert.equal(s.run("answer", w, "yes, go ahead").code, 0);
  await waitFor(`${w} ready`, () => s.shown(w)?.state === "ready", SLOW);
  assert.equal(readFileSync(join(ws, "plan-first.txt"), "utf8"), "after the plan\n");
  const card = s.run("verdict", w, "--json").json;
  const warning = card.warnings.find((x: any) => x.kind === "before-plan");
  assert.ok(warning, JSON.stringify(card.warnings));
  assert.match(warning.text, /changed files before its plan gate was discharged: early\.txt$/);
});

/** Every session file pi wrote under `dir`, concatenated. */
function sessionText(dir: string): string {
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
  assert.ok(files.length > 0, `a session file in ${dir}`);
  return files.map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
}

const SCOUT = (repo: string) => [
  { toolCall: { name: "write", id: "w", arguments: { path: join(repo, "a.txt"), content: "scout was here\n" } } },
  {
    text: "Findings: looked around.",
    toolCall: {
      name: "docket_done",
      id: "done",
      arguments: { outcome: "findings", summary: "looked", evidence: [], recommendations: [], items: [] },
    },
  },
  { text: "done" },
];

test("a contained read-only pi worker cannot write your checkout; uncontained, the same write lands and its card says your checkout changed", {
  timeout: 360_000,
}, async (t) => {
  const boxed = setup(t, "required");
  const w1 = spawnPi(boxed, "scout", "scout", SCOUT(boxed.repo));
  await waitFor(`${w1} ready`, () => boxed.shown(w1)?.state === "ready", SLOW);
  assert.equal(boxed.shown(w1).contained, true);
  assert.equal(readFileSync(join(boxed.repo, "a.txt"), "utf8"), "one\n", "the checkout is untouched");
  const card1 = boxed.run("verdict", w1, "--json").json;
  assert.deepEqual(
    card1.warnings.filter((x: any) => x.kind === "checkout-changed"),
    [],
  );

  const open = setup(t, "off");
  const w2 = spawnPi(open, "scout", "scout", SCOUT(open.repo));
  await waitFor(`${w2} ready`, () => open.shown(w2)?.state === "ready", SLOW);
  assert.equal(open.shown(w2).contained, false);
  assert.equal(
    readFileSync(join(open.repo, "a.txt"), "utf8"),
    "scout was here\n",
    "uncontained, a read-only kind is only words",
  );
  const text = open.run("verdict", w2);
  assert.match(text.stdout, /⚠ your checkout changed while read-only w1 ran \(by it or by you\): a\.txt/);
  assert.doesNotMatch(text.stdout, /no file changes/);
});

test("the whole loop contained: a pi architect plans read-only, its approved plan is implemented by a contained pi worker, and promote lands it in your checkout", {
  timeout: 360_000,
}, async (t) => {
  const s = setup(t, "required");
  const plan =
    "Goal: set a.txt to two\n\nSteps:\n1. Write two into a.txt\n   files: a.txt\n\nVerification:\n- cat a.txt";
  const architect = spawnPi(s, "architect", "plan", [
    {
      text: plan,
      toolCall: {
        name: "docket_done",
        id: "plan-1",
        arguments: { outcome: "proposal", summary: "one-step plan", evidence: [], recommendations: [], items: [] },
      },
    },
    { text: "published" },
  ]);
  await waitFor("the plan", () => s.shown(architect)?.state === "ready", SLOW);
  assert.equal(s.shown(architect).contained, true);
  assert.equal(s.run("approve", architect).code, 0);
  const script = s.pi.script("implement.json", [
    { toolCall: { name: "write", id: "w", arguments: { path: "a.txt", content: "two\n" } } },
    {
      text: "a.txt now says two.",
      toolCall: {
        name: "docket_done",
        id: "impl",
        arguments: { outcome: "completed", summary: "a.txt is two", evidence: [], recommendations: [], items: [] },
      },
    },
    { text: "done" },
  ]);
  const used = s.run("use", architect, "--implement", ...scriptedModelFlags(script), "--yes", "--json");
  assert.equal(used.code, 0, used.stderr + used.stdout);
  const implementer = used.json.worker;
  await waitFor("the implementation", () => s.shown(implementer)?.state === "ready", SLOW);
  assert.equal(s.shown(implementer).contained, true);
  assert.equal(readFileSync(join(s.repo, "a.txt"), "utf8"), "one\n", "nothing reached the checkout before promote");
  assert.equal(s.run("approve", implementer).code, 0);
  const promoted = s.run("promote", implementer, "--yes");
  assert.equal(promoted.code, 0, promoted.stderr + promoted.stdout);
  assert.equal(readFileSync(join(s.repo, "a.txt"), "utf8"), "two\n");
});
