// Claim: every command a refusal tells the human to run works — it names a real verb with real flags, and where it
// carries a value (a worker, a ref, an item) that value is of the kind the verb accepts, proven by running it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { isDocketError } from "../../../src/domain/errors.js";
import {
  assertDecisionUnchanged,
  assertPointerUnchanged,
  resolveReviewTarget,
} from "../../../src/engine/review/target.js";
import { addItem, editItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { updateWorker } from "../../../src/ledger/workers/workers.js";
import { createIo } from "../../../src/surfaces/shared/io.js";
import { VERB_GROUPS } from "../../../src/surfaces/shared/verbs/registry.js";
import { scanAdvice } from "../../support/advice-scan.js";
import { cliEnv, docket, type CliRun } from "../../support/docket-cli.js";
import { appWith, publish, reviewGround, reviewWorker, type ReviewGround } from "../../support/review-fixture.js";
import { writeLegacyBundles } from "../../support/stored.js";
import { tempDir } from "../../support/temp.js";
import { tmuxServer } from "../../support/tmux.js";
import { addWorker } from "../../support/work-ledger.js";
import { controlDirFor, runRemote } from "../../../src/substrate/ssh/connection.js";

type T = { after(fn: () => void): void };

async function verbTable(): Promise<Command> {
  const program = new Command("docket").option("--json");
  const engine = () => assert.fail("registering the verbs opens no engine");
  for (const group of VERB_GROUPS) (await group.load())(program, createIo(false), engine);
  return program;
}

/** `tell ${w} "<text>"` → ["tell", "${w}", "\"<text>\""]: spaces split, except inside `${…}` and quotes. */
function tokens(command: string): string[] {
  return command.replace(/^docket /, "").match(/"[^"]*"|\$\{[^}]*\}\S*|\S+/g) ?? [];
}

/** Checks one advised command against the verb table; returns what is wrong, or undefined. */
function verbProblem(program: Command, command: string): string | undefined {
  const words = tokens(command).map((w) => w.replace(/^\[|\]$/g, ""));
  let cmd = program;
  let i = 0;
  while (i < words.length && /^[a-z][a-z-]*$/.test(words[i]!)) {
    const sub = cmd.commands.find((c) => c.name() === words[i]);
    if (!sub) break;
    cmd = sub;
    i++;
  }
  if (cmd === program) return `"${words[0]}" is not a docket verb`;
  let positionals = 0;
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith("--")) {
      const option = [...cmd.options, ...program.options].find((o) => o.long === word);
      if (!option) return `${cmd.name()} has no option ${word}`;
      if (option.required || option.optional) i++;
    } else positionals++;
  }
  const args = cmd.registeredArguments;
  const variadic = args.at(-1)?.variadic ?? false;
  if (!variadic && positionals > args.length)
    return `${cmd.name()} takes ${args.length} argument(s), the advice gives ${positionals}`;
  if (positionals < args.filter((a) => a.required).length)
    return `${cmd.name()} needs ${args.filter((a) => a.required).length} argument(s), the advice gives ${positionals}`;
  return undefined;
}

test("every command Docket's text advises names a real verb, real flags and as many arguments as the verb takes; refusals backtick them", async () => {
  const program = await verbTable();
  const verbs = new Set(program.commands.map((c) => c.name()));
  const advice = scanAdvice();
  assert.ok(
    advice.filter((a) => a.inRefusal && a.commands.length > 0).length >= 30,
    "the scan finds the refusals' advice",
  );
  const problems: string[] = [];
  for (const a of advice) {
    for (const command of a.commands) {
      const problem = verbProblem(program, command);
      if (problem) problems.push(`${a.site}: \`${command}\`: ${problem}`);
    }
    if (!a.inRefusal) continue;
    const bare = a.text.replace(/`[^`]*`/g, "");
    for (const m of bare.matchAll(/\bdocket ([a-z][a-z-]*)/g)) {
      if (verbs.has(m[1]!))
        problems.push(
          `${a.site}: "docket ${m[1]} …" in a refusal is not in backticks, so it cannot be checked or copied`,
        );
    }
  }
  assert.deepEqual(problems, []);
});

/** Codes that mean "the command did not understand what it was told": wrong kind of argument, unknown name, bad flag. */
const NOT_UNDERSTOOD = new Set([
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

interface Refused {
  code: string;
  message: string;
  hint?: string;
}

/** A refusal in the one shape every verb uses: exit 1 and exactly one `{"error":{code, message, …}}` line on stdout. */
function refusedOf(r: CliRun): Refused {
  assert.equal(r.code, 1, `expected a refusal, got exit ${r.code}: ${r.stdout} ${r.stderr}`);
  assert.equal(r.stdout.trimEnd().split("\n").length, 1, r.stdout);
  assert.deepEqual(Object.keys(r.json), ["error"], r.stdout);
  assert.deepEqual(Object.keys(r.json.error).slice(0, 2), ["code", "message"], r.stdout);
  return r.json.error as Refused;
}

function engineRefusal(fn: () => unknown): Refused {
  try {
    fn();
  } catch (error) {
    if (isDocketError(error)) return { code: error.code, message: error.message, hint: error.hint };
    throw error;
  }
  assert.fail("expected a refusal");
}

/** The concrete commands a refusal names, placeholders filled with plain text. */
function advisedCommands(r: Refused): string[][] {
  return [...`${r.message} ${r.hint ?? ""}`.matchAll(/`docket ([^`]+)`/g)].map((m) =>
    tokens(m[1]!).map((w) => w.replace(/^"(.*)"$/, "$1").replace(/^<(text|note)>$/, "hello")),
  );
}

interface Case {
  /** `src/…/file.ts#code`: the refusal site(s) this case reproduces. */
  covers: string;
  refuse: () => Refused;
  /** The advised command must succeed outright (exit 0), not merely be understood. */
  succeeds?: boolean;
  /** Worker commands run with that worker's identity. */
  env?: Record<string, string>;
}

test("running every refusal's advised command that names a value: the value is one the verb accepts", (t) => {
  const g = reviewGround(t, {
    "README.md": "hello\n",
    "src/app.txt": appWith({}),
    "src/other.txt": "alpha\nbeta\ngamma\n",
    "docs/notes.txt": "notes\n",
  });
  const server = tmuxServer(t);
  const scratch = tempDir(t, "docket-advice-");
  const base = cliEnv({
    DOCKET_HOME: g.home,
    HOME: scratch,
    TMPDIR: scratch,
    PI_CODING_AGENT_DIR: join(scratch, "pi"),
    DOCKET_TMUX_SOCKET: server.socket,
  });
  const run = (args: string[], env: Record<string, string> = {}) =>
    docket({ env: { ...base, ...env }, cwd: g.project }, ...args, "--json");
  const fixture = ground(t, g, run);

  const cases: Case[] = [
    {
      covers: "src/engine/review/reviewable-worker.ts#use-not-current",
      refuse: () => refusedOf(run(["use", fixture.older.v1.ref, "--parent"])),
    },
    {
      covers: "src/domain/review/approval.ts#not-approved",
      refuse: () => refusedOf(run(["use", fixture.fresh(), "--parent"])),
    },
    {
      covers: "src/engine/handoff/use.ts#implement-has-patch",
      refuse: () => refusedOf(run(["use", fixture.patch.worker, "--implement", "--yes"])),
      succeeds: true,
    },
    {
      covers: "src/engine/handoff/use.ts#implement-has-patch",
      refuse: () => refusedOf(run(["use", fixture.storedPatch, "--implement", "--yes"])),
      succeeds: true,
    },
    {
      covers: "src/engine/protocol/report.ts#revision-changed",
      env: fixture.identity,
      succeeds: true,
      refuse: () =>
        refusedOf(run(["worker", "report", "--item", "t1", "--outcome", "done", "--body", "x"], fixture.identity)),
    },
    {
      covers: "src/engine/protocol/report.ts#unknown-reply",
      env: fixture.identity,
      succeeds: true,
      refuse: () =>
        refusedOf(
          run(
            ["worker", "report", "--item", "t2", "--outcome", "done", "--body", "x", "--answers", "t2.9=y"],
            fixture.identity,
          ),
        ),
    },
    {
      covers: "src/engine/review/deliverables.ts#no-deliverable",
      refuse: () => refusedOf(run(["report", fixture.idle])),
    },
    {
      covers: "src/domain/deliverables/refs.ts#no-such-version",
      succeeds: true,
      refuse: () => refusedOf(run(["promote", `worker-deliverable:${fixture.unjudged.worker}:0`, "--yes"])),
    },
    {
      covers: "src/engine/review/deliverables.ts#no-such-version",
      succeeds: true,
      refuse: () => refusedOf(run(["report", fixture.unjudged.worker, "--version", "5"])),
    },
    {
      covers: "src/engine/review/reviewable-stored.ts#legacy-no-patch",
      succeeds: true,
      refuse: () => refusedOf(run(["diff", "checkpoint:ckpt-auth"])),
    },
    {
      covers: "src/engine/review/judge.ts#no-open-question",
      succeeds: true,
      refuse: () => refusedOf(run(["answer", fixture.unjudged.worker, "yes"])),
    },
    {
      covers: "src/engine/review/promote.ts#nothing-to-promote",
      succeeds: true,
      refuse: () => refusedOf(run(["promote", fixture.storedAuthored, "--yes"])),
    },
    {
      covers: "src/engine/review/promote.ts#nothing-to-promote",
      succeeds: true,
      refuse: () => refusedOf(run(["promote", fixture.proposal, "--yes"])),
    },
    {
      covers: "src/engine/review/reviewable-stored.ts#stored-not-judged",
      refuse: () => refusedOf(run(["approve", fixture.storedPatch])),
    },
    {
      covers: "src/domain/review/approval.ts#not-approved",
      refuse: () => refusedOf(run(["promote", fixture.fresh(), "--yes"])),
    },
    {
      covers: "src/engine/review/target.ts#older-version",
      succeeds: true,
      refuse: () => refusedOf(run(["approve", fixture.older.worker, "--version", "1"])),
    },
    {
      covers: "src/engine/review/target.ts#version-moved",
      succeeds: true,
      refuse: () => engineRefusal(() => resolveReviewTarget(g.ctx, { target: fixture.older.worker, expectVersion: 1 })),
    },
    {
      covers: "src/engine/review/target.ts#version-moved",
      succeeds: true,
      refuse: () =>
        engineRefusal(() =>
          g.ctx.commands.run("test.stale", null, (tx) => assertPointerUnchanged(tx, fixture.older.staleTarget)),
        ),
    },
    {
      covers: "src/engine/review/target.ts#decision-landed",
      succeeds: true,
      refuse: () => engineRefusal(() => assertDecisionUnchanged(g.ctx.db, fixture.unjudged.worker, "d999")),
    },
    {
      covers: "src/engine/store/save.ts#deliverable-superseded",
      refuse: () => refusedOf(run(["save", "--from", fixture.older.v1.ref])),
    },
    {
      covers: "src/domain/review/approval.ts#not-approved",
      succeeds: true,
      refuse: () => refusedOf(run(["save", "--from", fixture.fresh()])),
    },
    {
      covers: "src/engine/talk/tell.ts#empty-message",
      succeeds: true,
      refuse: () => refusedOf(run(["tell", fixture.unjudged.worker, "   "])),
    },
    {
      covers: "src/engine/talk/tell.ts#question-not-found",
      succeeds: true,
      refuse: () => refusedOf(run(["tell", fixture.unjudged.worker, "--q", "q99", "hi"])),
    },
    {
      covers: "src/engine/talk/tell.ts#no-pane",
      succeeds: true,
      refuse: () => refusedOf(run(["peek", fixture.unjudged.worker])),
    },
    { covers: "src/engine/talk/tell.ts#no-window", refuse: () => refusedOf(run(["attach", fixture.exited])) },
    {
      covers: "src/engine/work/dispatch.ts#worker-exited",
      refuse: () => refusedOf(run(["dispatch", fixture.exited, "t3"])),
    },
    {
      covers: "src/domain/review/content-binding.ts#deliverable-tampered",
      succeeds: true,
      refuse: () => refusedOf(run(["promote", fixture.tampered.worker, "--yes"])),
    },
    {
      covers: "src/domain/review/content-binding.ts#deliverable-tampered",
      refuse: () => refusedOf(run(["load", fixture.tampered.stored])),
    },
    {
      covers: "src/surfaces/shared/verbs/broadcast.ts#nothing-affected",
      succeeds: true,
      refuse: () => refusedOf(run(["broadcast", "--yes", "vendor/nowhere.lock", "moved"])),
    },
    {
      covers: "src/domain/review/comment-anchor.ts#comment-file-not-in-patch",
      succeeds: true,
      refuse: () => refusedOf(run(["comment", fixture.unjudged.worker, "nowhere.txt:1", "x"])),
    },
    {
      covers: "src/domain/review/comment-anchor.ts#comment-outside-patch",
      succeeds: true,
      refuse: () => refusedOf(run(["comment", fixture.unjudged.worker, "src/app.txt:39", "x"])),
    },
    {
      covers: "src/engine/review/comments.ts#comment-no-patch",
      succeeds: true,
      refuse: () => refusedOf(run(["comment", fixture.proposal, "README.md", "x"])),
    },
    {
      covers: "src/engine/review/comments.ts#comment-version-not-current",
      succeeds: true,
      refuse: () => refusedOf(run(["comment", fixture.older.v1.ref, "src/app.txt:7", "x"])),
    },
    {
      covers: "src/engine/review/comments.ts#comment-outdated",
      succeeds: true,
      refuse: () => refusedOf(run(["comment", "--edit", fixture.comments.outdated, "y"])),
    },
    {
      covers: "src/engine/review/comments.ts#comment-sent",
      refuse: () => refusedOf(run(["comment", "--edit", fixture.comments.sent, "y"])),
    },
    {
      // After the older worker's other cases: its advice approves v2. A report of v1 makes v1 the version last shown.
      covers: "src/domain/review/shown-binding.ts#version-not-shown",
      succeeds: true,
      refuse: () => {
        assert.equal(run(["report", fixture.older.v1.ref]).code, 0);
        return refusedOf(run(["approve", fixture.older.worker]));
      },
    },
    {
      covers: "src/engine/review/combine.ts#combine-pending",
      refuse: () => {
        assert.equal(run(["combine", ...fixture.clash]).json.outcome, "conflicts");
        return refusedOf(run(["combine", ...fixture.clash]));
      },
    },
    {
      covers: "src/engine/review/combine.ts#conflict-markers",
      succeeds: true,
      refuse: () => {
        assert.equal(run(["combine", ...fixture.clash]).json.outcome, "conflicts");
        return refusedOf(run(["combine", "--continue"]));
      },
    },
    {
      covers: "src/engine/workers/budget.ts#budget-reached",
      refuse: () => {
        g.ctx.db
          .prepare("UPDATE workers SET budget_usd = 0.5, budget_warned_at = ?, budget_stopped_at = ? WHERE id = ?")
          .run(g.clock.now(), g.clock.now(), fixture.exited);
        return refusedOf(run(["respawn", fixture.exited]));
      },
    },
    {
      covers: "src/substrate/ssh/connection.ts#host-unreachable",
      refuse: () => {
        const config = join(scratch, "closed-port.ssh_config");
        writeFileSync(config, "Host closed\n  HostName 127.0.0.1\n  Port 1\n");
        run(["hosts", "add", "closed", "closed", "--dir", "/tmp/docket-advice-nowhere", "--ssh-config", config]);
        // Any ssh call to the host refuses so (spawn --host, peek, done's capture); raised here by the connection itself.
        return engineRefusal(() =>
          runRemote(
            {
              name: "closed",
              destination: "closed",
              sshConfig: config,
              controlDir: controlDirFor(g.home, process.getuid!()),
            },
            ["true"],
          ),
        );
      },
      succeeds: true,
    },
  ];
  const exempt: Record<string, string> = {
    "src/engine/demo/demo.ts#demo-timeout":
      "raised only inside `docket demo`, about a worker of the demo's own scratch home; the verb is checked statically",
    "src/engine/workers/wait.ts#wait-timeout":
      "raised only after `spawn --wait` waited five minutes; the advised peek names the worker spawned and is checked statically",
  };

  const templated = new Set(
    scanAdvice()
      .filter((a) => a.inRefusal && a.commands.some((c) => c.includes("${")))
      .map((a) => `${a.file}#${a.code}`),
  );
  const covered = new Set([...cases.map((c) => c.covers), ...Object.keys(exempt)]);
  assert.deepEqual(
    [...templated].filter((s) => !covered.has(s)).sort(),
    [],
    "every refusal whose advice names a value has a case here",
  );

  for (const c of cases) {
    const refused = c.refuse();
    assert.ok(c.covers.endsWith(`#${refused.code}`), `${c.covers}: got ${refused.code} (${refused.message})`);
    const commands = advisedCommands(refused);
    assert.ok(commands.length > 0, `${c.covers}: the refusal names a command: ${refused.message} / ${refused.hint}`);
    for (const argv of commands) {
      const r = run(argv, c.env);
      const what = `${c.covers} advised \`docket ${argv.join(" ")}\`: exit ${r.code} ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 300)}`;
      assert.notEqual(r.code, 2, what);
      assert.ok(!NOT_UNDERSTOOD.has(r.json?.error?.code), what);
      if (c.succeeds) assert.equal(r.code, 0, what);
    }
  }
});

/** Workers, items and stored records in the states the refusals above need. */
function ground(t: T, g: ReviewGround, run: (args: string[], env?: Record<string, string>) => CliRun) {
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
  const staleTarget = resolveReviewTarget(g.ctx, { target: olderW.worker });
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
