// The work-ledger verbs through the real CLI: items, dispatch, reports, attention and obligations, as JSON contracts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openEngine } from "../../../src/engine/open.js";
import { hashRunToken, updateWorker } from "../../../src/ledger/workers/workers.js";
import { identityEnv } from "../../support/protocol-worker.js";
import { addWorker } from "../../support/work-ledger.js";
import { tempDir } from "../../support/temp.js";
import { tmuxServer } from "../../support/tmux.js";
import { waitFor } from "../../support/wait.js";

const BIN = fileURLToPath(new URL("../../../../bin/docket.js", import.meta.url));

function cli(t: { after(fn: () => void): void }) {
  const home = tempDir(t, "docket-cli-");
  const tmp = tempDir(t, "docket-cli-tmp-");
  // The user's home is not the project: spawn refuses to copy a home directory into a workspace.
  const base = {
    PATH: process.env.PATH ?? "",
    DOCKET_HOME: home,
    PI_CODING_AGENT_DIR: tmp,
    TMPDIR: tmp,
    HOME: tempDir(t, "docket-cli-home-"),
  };
  const run = (args: string[], env: Record<string, string> = {}) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: tmp, env: { ...base, ...env }, encoding: "utf8" });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  /** The one JSON document on stdout, after asserting the exit code (so a refusal shows its stderr). */
  const json = (args: string[], env: Record<string, string> = {}, expectCode = 0) => {
    const r = run([...args, "--json"], env);
    assert.equal(r.code, expectCode, `docket ${args.join(" ")} exited ${r.code}; stderr: ${r.err} stdout: ${r.out}`);
    const lines = r.out.trim().split("\n");
    assert.equal(lines.length, 1, `one JSON document on stdout, got: ${r.out} ${r.err}`);
    assert.ok(lines[0]!.startsWith("{"), `a JSON document on stdout; got ${JSON.stringify(r.out)}, stderr ${r.err}`);
    return {
      code: r.code,
      body: JSON.parse(lines[0]!) as Record<string, unknown> & { error?: { code: string; message: string } },
    };
  };
  const worker = () => {
    const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: tmp });
    const who = addWorker(ctx, `tok-${Math.random().toString(36).slice(2)}`);
    ctx.close();
    return identityEnv(who);
  };
  return { run, json, worker, home, tmp };
}

test("item add, ls and show print the contract's JSON shapes", (t) => {
  const { json } = cli(t);
  assert.deepEqual(json(["item", "add", "fix", "the", "login"]).body, { id: "t1", kind: "todo", revision: 1 });
  assert.deepEqual(json(["item", "add", "--request", "ship beta"]).body, { id: "r1", kind: "request", revision: 1 });
  assert.deepEqual(json(["item", "ls"]).body, {
    items: [
      { id: "t1", kind: "todo", text: "fix the login", revision: 1, state: "open" },
      { id: "r1", kind: "request", text: "ship beta", revision: 1, state: "open" },
    ],
  });
  assert.equal(json(["item", "reply", "t1", "which", "browser?"]).code, 0);
  assert.deepEqual(json(["item", "show", "t1"]).body, {
    id: "t1",
    kind: "todo",
    text: "fix the login",
    revision: 2,
    state: "open",
    replies: [{ id: "t1.1", text: "which browser?", state: "unanswered" }],
    bindings: [],
    reports: [],
  });
  const missing = json(["item", "show", "t9"], {}, 1);
  assert.equal(missing.code, 1);
  assert.deepEqual(
    { code: missing.body.error!.code, message: missing.body.error!.message },
    { code: "item-not-found", message: "no item t9" },
  );
});

test("dispatch, worker report, attention and obligations speak the contract end to end", (t) => {
  const { json, run, worker } = cli(t);
  const env = worker();
  json(["item", "add", "write docs"]);
  json(["item", "add", "--request", "release 1.0"]);
  const d = json(["dispatch", "w1", "t1", "r1"]);
  assert.equal(d.code, 0);
  assert.deepEqual(d.body, {
    dispatch: "dp1",
    bindings: [
      { item: "t1", binding: "b1", acceptedRevision: 1 },
      { item: "r1", binding: "b2", acceptedRevision: 1 },
    ],
  });
  const again = json(["dispatch", "w1", "t1"], {}, 1);
  assert.equal(again.code, 1);
  assert.equal(again.body.error!.code, "item-already-bound");

  const blocked = json(
    [
      "worker",
      "report",
      "--item",
      "r1",
      "--outcome",
      "blocked",
      "--body",
      "need the signing key",
      "--for-human",
      "put the key in the vault",
    ],
    env,
  );
  assert.deepEqual(blocked, { code: 0, body: { results: [{ item: "r1", status: "pending", reportId: "rp1" }] } });
  const report = [
    "worker",
    "report",
    "--item",
    "t1",
    "--outcome",
    "done",
    "--body",
    "docs written",
    "--evidence",
    "commit=abc123 pushed to origin/main",
    "--key",
    "k1",
  ];
  const done = json(report, env);
  assert.deepEqual(done, { code: 0, body: { results: [{ item: "t1", status: "resolved", reportId: "rp2" }] } });
  assert.deepEqual(json(report, env), done, "the same key again answers the same");

  assert.deepEqual(json(["attention"]).body, {
    notifications: [
      {
        id: "n1",
        kind: "blocked",
        worker: "w1",
        item: "r1",
        body: "need the signing key",
        forHuman: ["put the key in the vault"],
        settled: false,
      },
      { id: "n2", kind: "outcome", worker: "w1", item: "t1", body: "docs written", forHuman: [], settled: false },
    ],
    settledHidden: 0,
  });
  const human = run(["attention"]);
  assert.match(human.out, /⏸ worker blocked w1 r1: need the signing key\n\s+› put the key in the vault/);
  assert.match(human.out, /✅ done w1 t1: docs written/);

  const due = json(["obligations", "--due"]).body as { obligations: Record<string, unknown>[] };
  assert.deepEqual(
    due.obligations.map((o) => Object.keys(o)),
    [["id", "item", "worker", "state", "dueAt", "parkedUntil", "disposition"]],
  );
  assert.deepEqual(
    { ...due.obligations[0], dueAt: undefined },
    { id: "o2", item: "r1", worker: "w1", state: "owed", dueAt: undefined, parkedUntil: null, disposition: null },
  );
  assert.equal(
    json(["obligation", "park", "o2", "--until", "2999-01-01T00:00:00Z"]).body.parkedUntil,
    "2999-01-01T00:00:00.000Z",
  );
  assert.deepEqual(json(["obligations", "--due"]).body, { obligations: [] });
  assert.equal(json(["obligation", "unpark", "o2"]).body.parkedUntil, null);
  assert.equal(
    (json(["obligations", "--all"]).body.obligations as { disposition: string | null }[])[0]!.disposition,
    "rp2",
  );

  const show = json(["item", "show", "t1"]).body;
  assert.deepEqual(show.bindings, [{ id: "b1", worker: "w1", generation: 1, acceptedRevision: 1, state: "resolved" }]);
  assert.deepEqual(show.reports, [{ id: "rp2", outcome: "done", body: "docs written" }]);
  assert.equal(show.state, "done");
});

test("worker report with a refused entry from --file exits 1 with one error object naming it, and records the others", (t) => {
  const { json, run, worker, tmp } = cli(t);
  const env = worker();
  for (const text of ["a", "b", "c"]) json(["item", "add", text]);
  json(["dispatch", "w1", "t1", "t2", "t3"]);
  json(["item", "edit", "t3", "changed", "elsewhere", "--external"]);
  const file = join(tmp, "report.json");
  writeFileSync(
    file,
    JSON.stringify([
      { item: "t1", outcome: "done", body: "ok", evidence: ["test=npm test green"], key: "c1" },
      { item: "t2", outcome: "done", body: "ok", key: "c1" },
      { item: "t3", outcome: "done", body: "ok", key: "c1" },
    ]),
  );
  const r = json(["worker", "report", "--file", file], env, 1);
  assert.equal(r.code, 1);
  assert.deepEqual(r.body, {
    error: {
      code: "revision-changed",
      message:
        "t3: Accepted work revision changed; reconcile before reporting (1 of 3 entries refused; the others were recorded)",
      hint: "t3 is at revision 2, you accepted 1: read it, then `docket worker reconcile --item t3`",
      results: [
        { item: "t1", status: "resolved", reportId: "rp1" },
        { item: "t2", status: "resolved", reportId: "rp2" },
        {
          item: "t3",
          status: "refused",
          error: {
            code: "revision-changed",
            message: "Accepted work revision changed; reconcile before reporting",
            hint: "t3 is at revision 2, you accepted 1: read it, then `docket worker reconcile --item t3`",
          },
        },
      ],
    },
  });
  assert.equal(json(["item", "show", "t1"]).body.state, "done", "one refused entry leaves the others committed");
  const text = run(["worker", "report", "--file", file], env);
  assert.equal(text.code, 1);
  assert.equal(text.out, "", "a refusal prints nothing on stdout");
  assert.match(
    text.err,
    /^docket: t3: Accepted work revision changed; reconcile before reporting \(1 of 3 entries refused; the others were recorded\) \(t3 is at revision 2/,
  );
  const reconciled = json(["worker", "reconcile", "--item", "t3"], env);
  assert.deepEqual(reconciled.body, {
    item: "t3",
    binding: "b3",
    previousRevision: 1,
    acceptedRevision: 2,
    text: "changed elsewhere",
    unansweredReplies: [],
  });
  assert.deepEqual(
    json(["worker", "report", "--file", file], env).body,
    {
      results: [
        { item: "t1", status: "resolved", reportId: "rp1" },
        { item: "t2", status: "resolved", reportId: "rp2" },
        { item: "t3", status: "resolved", reportId: "rp3" },
      ],
    },
    "the retry replays the recorded entries by their keys and records the reconciled one",
  );
});

test("worker report refuses a missing identity, missing flags and mixed input as usage errors", (t) => {
  const { json, worker } = cli(t);
  const env = worker();
  const noId = json(["worker", "report", "--item", "t1", "--outcome", "done", "--body", "x"], {}, 2);
  assert.equal(noId.code, 2);
  assert.equal(noId.body.error!.code, "no-worker-identity");
  assert.match(noId.body.error!.message, /DOCKET_WORKER_ID, DOCKET_GENERATION, DOCKET_RUN_TOKEN are not set/);
  json(["worker", "report", "--outcome", "done"], env, 2);
  json(["worker", "report", "--file", "x.json", "--item", "t1"], env, 2);
  json(["worker", "report", "--item", "t1", "--outcome", "done", "--body", "x", "--answers", "nope"], env, 2);
  const badEvidence = json(
    ["worker", "report", "--item", "t1", "--outcome", "done", "--body", "x", "--evidence", "vibes=good"],
    env,
    1,
  );
  assert.deepEqual({ code: badEvidence.code, err: badEvidence.body.error!.code }, { code: 1, err: "evidence-invalid" });
  const unreadable = json(["worker", "report", "--file", "missing.json"], env, 1);
  assert.deepEqual({ code: unreadable.code, err: unreadable.body.error!.code }, { code: 1, err: "input-unreadable" });
});

test("through the CLI a wrong run token is refused as a token mismatch and a stale generation as a replaced process", (t) => {
  const { json, worker, home, tmp } = cli(t);
  const env = worker();
  json(["item", "add", "x"]);
  json(["dispatch", "w1", "t1"]);
  const forged = json(
    ["worker", "report", "--item", "t1", "--outcome", "done", "--body", "x"],
    { ...env, DOCKET_RUN_TOKEN: "someone-else" },
    1,
  );
  assert.deepEqual(Object.keys(forged.body), ["error"], "one error object, the entry's result inside it");
  assert.equal(forged.body.error!.code, "run-token-mismatch");
  assert.match(forged.body.error!.message, /run token does not match/);
  assert.doesNotMatch(forged.body.error!.message, /replaced/);

  const ctx = openEngine({ env: { DOCKET_HOME: home }, cwd: tmp });
  ctx.commands.run("test.respawn", {}, (tx) =>
    updateWorker(tx, "w1", { generation: 2, runTokenHash: hashRunToken("generation-2") }),
  );
  ctx.close();
  const stale = json(["worker", "report", "--item", "t1", "--outcome", "done", "--body", "x"], env, 1);
  assert.equal(stale.body.error!.code, "generation-replaced");
  assert.match(stale.body.error!.message, /process was replaced/);
});

test("a real worker spawned in tmux reports through the CLI from its own environment", async (t) => {
  const { json, run, tmp } = cli(t);
  const env = { DOCKET_TMUX_SOCKET: tmuxServer(t).socket };
  json(["item", "add", "write notes"], env);
  json(["item", "add", "--request", "ship it"], env);
  const docket = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`;
  const cmd = `${docket} worker report --item t1 --outcome done --body 'notes written' --evidence note=by-hand && ${docket} worker report --item r1 --outcome blocked --body 'need approval' --for-human 'approve the release'`;
  spawnSync("git", ["init", "-q", tmp]);
  const spawned = json(
    ["spawn", "--agent", "command", "--cmd", cmd, "--item", "t1", "--item", "r1", "take notes and ship"],
    env,
  );
  assert.equal(spawned.code, 0, JSON.stringify(spawned.body));
  const notes = await waitFor("both per-item notifications", () => {
    const all = json(["attention"], env).body.notifications as { kind: string; item: string; forHuman: string[] }[];
    return all.filter((n) => n.item !== null).length >= 2 ? all : undefined;
  });
  // The command then exits without a deliverable, so a `failed` notice about the worker itself may follow.
  const perItem = notes.filter((n) => n.item !== null);
  assert.deepEqual(
    perItem.map((n) => [n.kind, n.item, n.forHuman]),
    [
      ["outcome", "t1", []],
      ["blocked", "r1", ["approve the release"]],
    ],
  );
  assert.match(run(["item", "ls", "--all"], env).out, /t1\s+done/);
  const owed = json(["obligations"], env).body.obligations as { item: string; state: string }[];
  assert.deepEqual(
    owed.map((o) => [o.item, o.state]),
    [["r1", "owed"]],
  );
});
