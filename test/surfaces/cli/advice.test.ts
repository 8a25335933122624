// Claim: every command a refusal tells the human to run works — it names a real verb with real flags, and where it
// carries a value (a worker, a ref, an item) that value is of the kind the verb accepts, proven by running it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import {
  assertDecisionUnchanged,
  assertPointerUnchanged,
  resolveReviewTarget,
} from "../../../src/engine/review/target.js";
import { workerRefOf } from "../../../src/engine/review/deliverables.js";
import { createIo } from "../../../src/surfaces/shared/io.js";
import { VERB_GROUPS } from "../../../src/surfaces/shared/verbs/registry.js";
import {
  NOT_UNDERSTOOD,
  advisedCommands,
  engineRefusal,
  ground,
  refusedOf,
  tokens,
  type Case,
} from "../../support/advice-ground.js";
import { scanAdvice } from "../../support/advice-scan.js";
import { docket } from "../../support/docket-cli.js";
import { appWith, groundEnv, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { tmuxServer } from "../../support/tmux.js";
import { controlDirFor, runRemote } from "../../../src/substrate/ssh/connection.js";

async function verbTable(): Promise<Command> {
  const program = new Command("docket").option("--json");
  const engine = () => assert.fail("registering the verbs opens no engine");
  for (const group of VERB_GROUPS) (await group.load())(program, createIo(false), engine);
  return program;
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

test("running every refusal's advised command that names a value: the value is one the verb accepts", (t) => {
  const g = reviewGround(t, {
    "README.md": "hello\n",
    "src/app.txt": appWith({}),
    "src/other.txt": "alpha\nbeta\ngamma\n",
    "docs/notes.txt": "notes\n",
  });
  const server = tmuxServer(t);
  const base = groundEnv(t, g, { DOCKET_TMUX_SOCKET: server.socket });
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
      refuse: () =>
        engineRefusal(() => resolveReviewTarget(g.ctx, workerRefOf(fixture.older.worker), { expectVersion: 1 })),
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
        const config = join(base.HOME!, "closed-port.ssh_config");
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
    {
      covers: "src/engine/groups/choose.ts#not-a-candidate",
      refuse: () => {
        const w = reviewWorker(t, g);
        const v1 = publish(g, w, { "src/app.txt": appWith({ 30: "thirty" }) });
        return refusedOf(run(["choose", v1.ref]));
      },
      succeeds: true,
    },
    {
      covers: "src/engine/review/answer-choices.ts#no-open-question",
      refuse: () => refusedOf(run(["answer", fixture.exited, "yes"])),
    },
    {
      covers: "src/engine/review/reviewable-worker.ts#worker-deleted",
      refuse: () => {
        const w = reviewWorker(t, g);
        const v1 = publish(g, w, { "src/app.txt": appWith({ 31: "thirty-one" }) });
        const deleted = run(["delete", w.worker, "--yes", "--force"]);
        assert.equal(deleted.code, 0, deleted.stdout + deleted.stderr);
        return refusedOf(run(["approve", v1.ref]));
      },
      succeeds: true,
    },
  ];
  const exempt: Record<string, string> = {
    "src/domain/groups/choice.ts#not-shown-version":
      "needs a best-of group shown and a candidate that moved; test/domain/groups/choice.test.ts raises it; the verb is checked statically",
    "src/engine/hosts/host-containment.ts#host-sandbox-unavailable":
      "needs a host whose bubblewrap fails under sandbox required; test/surfaces/cli/remote-contained.test.ts raises it; the verb is checked statically",
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
