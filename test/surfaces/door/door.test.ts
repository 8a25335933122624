// The worker door (docs/door.md): a command worker with nothing but its door and identity completes the protocol; the
// door SIGKILLed mid-done and mid-report-stream loses and doubles nothing, nor after it committed a heartbeat, turn,
// touches batch or event it never answered; 16 workers × 100 calls at once land once each.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { lstatSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { addItem } from "../../../src/engine/work/items.js";
import { dispatchItems } from "../../../src/engine/work/dispatch.js";
import { checkLedgerIntegrity } from "../../../src/ledger/core/integrity.js";
import { callDoor, doorOf } from "../../../src/surfaces/shared/door-client.js";
import { cliGround } from "../../support/cli-workers.js";
import { cliEnv, DOCKET_BIN } from "../../support/docket-cli.js";
import { doorPid } from "../../support/door-abuse.js";
import { identityEnv, isolatedWorker } from "../../support/protocol-worker.js";
import { gitChildren } from "../../support/proc.js";
import { teardown, type Hooks } from "../../support/teardown.js";
import { waitFor } from "../../support/wait.js";
import { addWorker, invariantViolations, workLedger, type WorkLedger } from "../../support/work-ledger.js";
import { PERIODIC_KEY_MS, recordHeartbeat, recordTurn } from "../../../src/engine/workers/lifecycle.js";
import { recordTouches } from "../../../src/engine/workers/touches.js";

const CLIENT = new URL("../../../src/surfaces/shared/door-client.js", import.meta.url).pathname;

/** After the retries: every invariant holds and SQLite finds the ledger file intact. */
function assertLedgerSound(ctx: WorkLedger["ctx"], home: string): void {
  assert.deepEqual(invariantViolations(ctx.db), []);
  assert.equal(checkLedgerIntegrity(join(home, "ledger.sqlite")).ok, true);
}

function runCli(
  t: Hooks,
  env: NodeJS.ProcessEnv,
  cwd: string,
  args: string[],
  input = "",
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [DOCKET_BIN, ...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  teardown(t).child(child);
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  child.stdin.end(input);
  return new Promise((res) => child.on("close", (code) => res({ code, out, err })));
}

test("a command worker given only DOCKET_DOOR and its identity (no home, empty HOME) completes todos, wait, report and done; the human sees all of it", {
  timeout: 240_000,
}, async (t) => {
  const { home, run } = cliGround(t, { files: { "src/app.txt": "one\n" } });
  assert.equal(run("item", "add", "--json", "make", "it", "blue").code, 0);
  // Every docket call of the worker runs with exactly these variables: its door and identity, nothing of the home.
  const bare =
    'env -i HOME= DOCKET_DOOR="$DOCKET_DOOR" DOCKET_WORKER_ID="$DOCKET_WORKER_ID" DOCKET_GENERATION="$DOCKET_GENERATION" DOCKET_RUN_TOKEN="$DOCKET_RUN_TOKEN" "$DOCKET_NODE" "$DOCKET_BIN" worker';
  const script = [
    `${bare} todos "read the task" "paint it" > ../out-todos.txt 2>&1`,
    `${bare} wait --question "which blue?" --option navy --option sky > ../out-wait.txt 2>&1`,
    "read answer",
    `echo "$answer" > src/app.txt`,
    `${bare} report --item t1 --outcome done --body "painted $answer" > ../out-report.txt 2>&1`,
    `printf 'I painted it %s.\\n' "$answer" | ${bare} done --outcome completed --summary "painted" > ../out-done.txt 2>&1`,
    "sleep 600",
  ].join("; ");
  const spawned = run("spawn", "--agent", "command", "--cmd", script, "--item", "t1", "--yes", "--json", "paint it");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  const envFile = readFileSync(join(home, "fleet", "w1", "launch.env"), "utf8");
  assert.doesNotMatch(envFile, /DOCKET_HOME|DOCKET_TMUX_SOCKET/, "the launch env names no home and no tmux socket");
  assert.match(envFile, new RegExp(`DOCKET_DOOR='${join(home, "door", "w1-1.sock")}'`));

  await waitFor("the question", () => run("ls", "--json").json?.workers?.[0]?.state === "needs_input", 60_000);
  assert.match(readFileSync(join(home, "fleet", "w1", "out-todos.txt"), "utf8"), /read the task/);
  const socket = lstatSync(join(home, "door", "w1-1.sock"));
  assert.ok(socket.isSocket());
  assert.equal(socket.mode & 0o777, 0o600, "the generation's socket is the human's only");
  assert.equal(statSync(join(home, "door")).mode & 0o777, 0o700);

  const told = run("tell", "w1", "--q", "q1", "--json", "navy");
  assert.equal(told.code, 0, told.stderr);
  await waitFor("the deliverable", () => run("ls", "--json").json?.workers?.[0]?.state === "ready", 60_000);
  for (const f of ["out-wait.txt", "out-report.txt", "out-done.txt"])
    assert.doesNotMatch(readFileSync(join(home, "fleet", "w1", f), "utf8"), /error|docket:/i, f);

  const item = run("item", "show", "t1", "--json").json;
  assert.equal(item.state ?? item.item?.state, "done", JSON.stringify(item));
  assert.match(JSON.stringify(item), /painted navy/, "the worker's reply shows for the human");
  const db = new Database(join(home, "ledger.sqlite"), { readonly: true });
  t.after(() => db.close());
  assert.deepEqual(
    db.prepare("SELECT delivery FROM messages WHERE question = 'q1'").all(),
    [{ delivery: "delivered" }],
    "the answer's receipt: delivered into its pane",
  );
  const report = run("report", "w1", "--json").json;
  assert.equal(report.body ?? report.deliverable?.body, "I painted it navy.\n");
  assert.match(JSON.stringify(report), /src\/app\.txt/, "the frozen change set holds the worker's edit");

  const doctor = run("doctor", "--json").json;
  const door = (doctor.findings ?? doctor.error.findings).find((f: { check: string }) => f.check === "door");
  assert.match(door.message, /^running \(pid \d+, since .*\), serving 1 worker generation: w1@1$/);
});

/** The worker's environment on `home` (HOME there too) and the pid of the door its first heartbeat started. */
async function startedDoor(
  t: Hooks,
  home: string,
  who: { worker: string; generation: number; runToken: string },
  cwd: string,
): Promise<{ env: NodeJS.ProcessEnv; first: number }> {
  const env = cliEnv({ DOCKET_HOME: home, ...identityEnv(who), HOME: home });
  assert.equal((await runCli(t, env, cwd, ["worker", "heartbeat"])).code, 0);
  return { env, first: doorPid(home)! };
}

test("SIGKILL of the door in the middle of a done's capture: the client's retry publishes exactly one version", {
  timeout: 240_000,
}, async (t) => {
  const { ctx, home } = workLedger(t);
  const files = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`src/f${i}.txt`, `line ${i}\n`]));
  const w = isolatedWorker(t, ctx, { files, runToken: "tok-done" });
  for (let i = 0; i < 1500; i++) writeFileSync(join(w.workspace, "src", `f${i}.txt`), `changed ${i}\n`.repeat(20));
  // A heartbeat starts the door, so that it runs before the done that it will die in.
  const { env, first } = await startedDoor(t, home, w, w.workspace);
  const done = runCli(
    t,
    env,
    w.workspace,
    ["worker", "done", "--outcome", "completed", "--summary", "many", "--call-id", "c1", "--json"],
    "the body\n",
  );
  await waitFor("the door running git for the capture", () => gitChildren(first).length > 0, 60_000, 2);
  process.kill(first, "SIGKILL");
  const r = await done;
  assert.equal(r.code, 0, r.err + r.out);
  assert.equal(JSON.parse(r.out).deliverable.version, 1);
  assert.notEqual(doorPid(home), first, "the client started a new door");
  assert.deepEqual(
    readdirSync(join(home, "fleet", w.worker, "deliverables")).filter((n) => n.endsWith(".json")),
    ["v1.json"],
  );
  assert.deepEqual(ctx.db.prepare("SELECT state, deliverable_version AS v FROM workers").all(), [
    { state: "ready", v: 1 },
  ]);
  assertLedgerSound(ctx, home);
});

test("SIGKILL of the door in the middle of a report stream: the retry lands every entry exactly once", {
  timeout: 240_000,
}, async (t) => {
  const { ctx, home } = workLedger(t);
  const who = addWorker(ctx, "tok-report");
  const items = Array.from({ length: 300 }, (_, j) => addItem(ctx, { kind: "todo", text: `item ${j}` }).id);
  for (let k = 0; k < items.length; k += 10) dispatchItems(ctx, { worker: who.worker, items: items.slice(k, k + 10) });
  const file = join(home, "entries.json");
  writeFileSync(file, JSON.stringify(items.map((item) => ({ item, outcome: "done", body: `finished ${item}` }))));
  const { env, first } = await startedDoor(t, home, who, home);
  const count = () => (ctx.db.prepare("SELECT COUNT(*) AS n FROM reports").get() as { n: number }).n;
  const report = runCli(t, env, home, ["worker", "report", "--file", file, "--key", "k1", "--json"]);
  await waitFor("some reports committed, not all", () => count() >= 20, 60_000, 1);
  assert.ok(count() < items.length, "killed mid-stream");
  process.kill(first, "SIGKILL");
  const r = await report;
  assert.equal(r.code, 0, r.err + r.out);
  assert.equal(JSON.parse(r.out).results.length, items.length);
  assert.equal(count(), items.length, "every entry once");
  assert.deepEqual(ctx.db.prepare("SELECT item, COUNT(*) AS n FROM reports GROUP BY item HAVING n > 1").all(), []);
  assertLedgerSound(ctx, home);
});

test("a heartbeat, turn, touches batch and event the door committed but never answered (SIGKILLed): the client's retry lands each once", {
  timeout: 240_000,
}, async (t) => {
  const { ctx, home } = workLedger(t);
  const who = addWorker(ctx, "tok-beat");
  const { env } = await startedDoor(t, home, who, home);
  const door = doorOf(env);
  const one = <T>(sql: string, ...params: unknown[]) => ctx.db.prepare(sql).get(...params) as T;
  const keyRows = (key: string) => one<{ n: number }>("SELECT COUNT(*) AS n FROM idempotency WHERE key = ?", key).n;
  const eventLines = () => {
    try {
      return readFileSync(join(home, "fleet", who.worker, "events.ndjson"), "utf8")
        .split("\n")
        .filter((l) => l.includes('"type":"tool_start"')).length;
    } catch {
      return 0;
    }
  };
  const cases: {
    call: "heartbeat" | "turn" | "touches" | "event";
    args: Record<string, unknown>;
    landed: () => boolean;
  }[] = [
    {
      call: "heartbeat",
      args: { pid: 4242, callId: "beat-1" },
      landed: () => one<{ pid: number }>("SELECT pid FROM workers").pid === 4242,
    },
    {
      call: "turn",
      args: { event: "end", callId: "turn-1" },
      landed: () => keyRows(`turn/${who.worker}/turn-1`) === 1,
    },
    {
      call: "touches",
      args: { touches: [{ path: "src/a.txt", how: "edit" }], callId: "touch-1" },
      landed: () => one<{ n: number }>("SELECT COUNT(*) AS n FROM touched_paths").n === 1,
    },
    {
      call: "event",
      args: { event: { type: "tool_start", tool: "edit" }, callId: "event-1" },
      landed: () => eventLines() === 1,
    },
  ];
  const replies: Record<string, unknown> = {};
  let beatAt: string | undefined;
  for (const c of cases) {
    const first = doorPid(home)!;
    // The first attempt, as the client sends it; its reply is never read: the door dies after it committed.
    const raw = connect(door.socket);
    raw.on("error", () => undefined);
    raw.write(
      `${JSON.stringify({ call: c.call, worker: who.worker, generation: 1, token: who.runToken, args: c.args })}\n`,
    );
    await waitFor(`the door committing ${c.call}`, c.landed, 60_000, 2);
    if (c.call === "heartbeat") beatAt = one<{ at: string }>("SELECT heartbeat_at AS at FROM workers").at;
    process.kill(first, "SIGKILL");
    raw.destroy();
    await waitFor("the door gone", () => doorPid(home) === undefined, 30_000, 5);
    replies[c.call] = await callDoor(door, c.call, c.args); // the retry: the same request, the same key
    assert.notEqual(doorPid(home), undefined, "the client started a new door");
  }
  assert.equal(
    one<{ at: string }>("SELECT heartbeat_at AS at FROM workers").at,
    beatAt,
    "the heartbeat's retry stamped nothing again",
  );
  assert.deepEqual(replies.touches, { recorded: 1 }, "the touches retry answers the first result");
  assert.equal(eventLines(), 1, "the event once");
  for (const [tool, id] of [
    ["heartbeat", "beat-1"],
    ["turn", "turn-1"],
    ["touches", "touch-1"],
  ])
    assert.equal(keyRows(`${tool}/${who.worker}/${id}`), 1, tool);
  assertLedgerSound(ctx, home);
});

test("a worker's heartbeat, turn and touches keys older than ten minutes are forgotten by its next heartbeat; newer ones and other workers' stay", (t) => {
  const { ctx, clock } = workLedger(t);
  const a = addWorker(ctx, "tok-a");
  const b = addWorker(ctx, "tok-b");
  recordHeartbeat(ctx, a, {}, "old-beat");
  recordTouches(ctx, a, [{ path: "x.txt", how: "read" }], "old-touch");
  recordHeartbeat(ctx, b, {}, "b-beat");
  clock.advanceMinutes(PERIODIC_KEY_MS / 60_000 + 1);
  recordTurn(ctx, a, "start", "new-turn");
  recordHeartbeat(ctx, a, {}, "new-beat");
  const keys = (
    ctx.db
      .prepare(
        "SELECT key FROM idempotency WHERE key LIKE 'heartbeat/%' OR key LIKE 'turn/%' OR key LIKE 'touches/%' ORDER BY key",
      )
      .all() as { key: string }[]
  ).map((r) => r.key);
  assert.deepEqual(keys, [
    `heartbeat/${a.worker}/new-beat`,
    `heartbeat/${b.worker}/b-beat`,
    `turn/${a.worker}/new-turn`,
  ]);
});

test("16 workers making 100 calls each at once through one door: nothing lost, nothing doubled (a retried key lands once)", {
  timeout: 240_000,
}, async (t) => {
  const { ctx, home } = workLedger(t);
  const workers = Array.from({ length: 16 }, (_, i) => addWorker(ctx, `tok-${i}`));
  // Each client process: 100 calls with their own keys — 20 notes (a worker's cap of open notes), then 80 progress
  // boards — every tenth sent twice (a retry), plus a heartbeat per ten.
  const program = `
    const { callDoor, doorOf } = await import(${JSON.stringify(CLIENT)});
    const door = doorOf(process.env);
    const call = (i) => i < 20
      ? callDoor(door, "note", { text: door.who.worker + " note " + i, callId: "n" + i })
      : callDoor(door, "todos", { items: [{ text: "step " + i }], callId: "t" + i });
    for (let i = 0; i < 100; i++) {
      await call(i);
      if (i % 10 === 0) { await call(i); await callDoor(door, "heartbeat", {}); }
    }`;
  const runs = workers.map((w) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", program], {
      env: cliEnv({ DOCKET_HOME: home, ...identityEnv(w) }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    teardown(t).child(child);
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    return new Promise<{ code: number | null; err: string }>((res) => child.on("close", (code) => res({ code, err })));
  });
  for (const r of await Promise.all(runs)) assert.equal(r.code, 0, r.err);
  const rows = ctx.db
    .prepare("SELECT worker, COUNT(*) AS n, COUNT(DISTINCT text) AS d FROM notes GROUP BY worker ORDER BY seq")
    .all() as { worker: string; n: number; d: number }[];
  assert.equal(rows.length, 16);
  for (const r of rows) assert.deepEqual([r.n, r.d], [20, 20], r.worker);
  for (const w of workers) {
    const boards = ctx.db
      .prepare("SELECT COUNT(*) AS n FROM idempotency WHERE command = 'protocol.todos' AND key LIKE ?")
      .get(`%/${w.worker}/t%`) as { n: number };
    assert.equal(boards.n, 80, `${w.worker}: every progress board once`);
  }
  assert.equal(
    readdirSync(join(home, "door")).filter((n) => n.endsWith(".sock")).length,
    18,
    "one socket per generation, the explain socket and the egress socket",
  );
});
