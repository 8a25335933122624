// Claim: a hostile worker cannot flood or reach past its caps. A sidecar too large to read is refused from its size (an
// unrelated card still works in a small heap), a too-large change set is never frozen, notes and consults stop at their
// per-worker caps, the sign-in key works once and never evicts a live browser, locks/ is 0700, and no worker peeks a pane.
// A view reads only what it shows: a worker's huge session file costs each spend refresh a bounded part, and peek reads
// only the end of a pane tail.

import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { openEngine } from "../../src/engine/open.js";
import { startWebServer } from "../../src/surfaces/web/server.js";
import { cliEnv, docket, docketWith } from "../support/docket-cli.js";
import { appWith, groundEnv, publish, reviewGround, reviewWorker } from "../support/review-fixture.js";
import type { ReviewGround } from "../support/review-fixture.js";
import { identityEnv, type ProtocolWorker } from "../support/protocol-worker.js";
import { tempDir } from "../support/temp.js";
import { tmuxServer } from "../support/tmux.js";
import { waitFor } from "../support/wait.js";
import { dumpWorkTables } from "../support/work-ledger.js";
import { workerIdentityEnv } from "../support/launch-env.js";
import { gitRepo } from "../support/git.js";
import { scriptedPi, scriptedModelFlags } from "../support/scripted-pi.js";
import { ledgerRows } from "../support/snapshot.js";

/** The caps as documented (docs/hostile-judgment.md), written out so the test states them. */
const MAX_OPEN_NOTES = 20;
const MAX_OPEN_QUESTIONS = 5;

type T = { after(fn: () => void | Promise<void>): void };

function cli(t: T, g: ReviewGround, as?: ProtocolWorker, extra: Record<string, string> = {}) {
  const env = groundEnv(t, g, { DOCKET_TMUX_SOCKET: tmuxServer(t).socket, ...(as && identityEnv(as)), ...extra });
  return (...args: string[]) => docket({ env, cwd: as?.workspace ?? g.project }, ...args);
}

/** Rewrites a claimed sidecar in place as a same-user worker could: a valid head, then 48 MiB of padding. */
function inflate(path: string): void {
  const d = JSON.parse(readFileSync(path, "utf8"));
  d.body = "";
  const head = JSON.stringify(d).replace(/"body":""/, '"body":"');
  const fd = openSync(path, "w");
  try {
    writeSync(fd, head);
    const chunk = Buffer.alloc(1024 * 1024, "x");
    for (let i = 0; i < 48; i++) writeSync(fd, chunk);
    writeSync(fd, '"}\n');
  } finally {
    closeSync(fd);
  }
}

test("a 48 MiB sidecar is refused from its size: its card says too large, and an unrelated verdict runs in a 40 MB heap", (t) => {
  const g = reviewGround(t);
  const w1 = reviewWorker(t, g);
  const w2 = reviewWorker(t, g);
  publish(g, w1, { "src/app.txt": appWith({ 3: "three" }) });
  publish(g, w2, { "src/app.txt": appWith({ 30: "thirty" }) });
  inflate(join(g.home, "fleet", w2.worker, "deliverables", "v1.json"));
  const small = cli(t, g, undefined, { NODE_OPTIONS: "--max-old-space-size=40" });
  const unrelated = small("verdict", w1.worker, "--json");
  assert.equal(unrelated.code, 0, unrelated.stderr.slice(-400));
  assert.equal(unrelated.json.deliverable.ref, "worker-deliverable:w1:1");
  const own = small("verdict", w2.worker, "--json");
  assert.equal(own.code, 0, own.stderr.slice(-400));
  const invalid = own.json.warnings.find((w: { kind: string }) => w.kind === "deliverable-invalid");
  assert.match(invalid?.text ?? "", /v1\.json is too large to read \(48\.\d MiB; at most 32\.0 MiB\)/);
  assert.ok(
    !own.json.actions.includes("approve") && !own.json.actions.includes("promote --approve"),
    "nothing too large to read can be judged",
  );
  const promote = small("promote", w2.worker, "--approve", "--yes", "--json");
  assert.equal(promote.code, 1);
  assert.equal(promote.json.error.code, "deliverable-invalid");
});

test("verdict w1 opens no sidecar of a worker whose frozen files it does not share: a FIFO in w2's place is never opened, until w2's own card reads it", async (t) => {
  const g = reviewGround(t);
  const w1 = reviewWorker(t, g);
  const w2 = reviewWorker(t, g);
  publish(g, w1, { "src/app.txt": appWith({ 3: "three" }) });
  publish(g, w2, { "src/other.txt": "alpha\nBETA\ngamma\n" });
  const sidecar = join(g.home, "fleet", w2.worker, "deliverables", "v1.json");
  rmSync(sidecar);
  execFileSync("mkfifo", [sidecar]);
  // A writer blocked on the FIFO: its open returns (and it leaves the mark) the moment any reader opens the FIFO.
  const opened = join(tempDir(t, "docket-hostile-fifo-"), "opened");
  const writer = spawn("sh", ["-c", 'exec 3>"$0"; touch "$1"', sidecar, opened], { stdio: "ignore" });
  t.after(() => {
    writer.kill();
  });
  const human = cli(t, g);
  const card = human("verdict", w1.worker, "--json");
  assert.equal(card.code, 0, card.stderr);
  assert.equal(card.json.deliverable.ref, "worker-deliverable:w1:1");
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(existsSync(opened), false, "verdict w1 never opened w2's sidecar");
  // The control: w2's own card reads its sidecar, and the writer sees the open.
  human("verdict", w2.worker, "--json");
  await waitFor("the FIFO opened by w2's own card", () => existsSync(opened));
});

test("a change set over the door's cap (24 MiB by default) is refused at done with change-set-too-large; nothing is frozen", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  writeFileSync(
    join(w.workspace, "blob.txt"),
    `${randomBytes(18 * 1024 * 1024)
      .toString("hex")
      .replace(/(.{100})/g, "$1\n")}\n`,
  );
  const before = dumpWorkTables(g.ctx.db);
  const done = cli(t, g, w)("worker", "done", "--outcome", "completed", "--summary", "huge", "--json");
  assert.equal(done.code, 1, done.stdout.slice(0, 400));
  assert.equal(done.json.error.code, "change-set-too-large");
  assert.deepEqual(dumpWorkTables(g.ctx.db), before, "no version, no state change");
  assert.throws(() => statSync(join(g.home, "fleet", w.worker, "deliverables", "v1.json")), /ENOENT/);
});

test("notes and consults stop at their per-worker caps with a named refusal at the worker's call", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const worker = cli(t, g, w);
  for (let i = 1; i <= MAX_OPEN_NOTES; i++) assert.equal(worker("worker", "note", `note ${i}`, "--json").code, 0);
  const flood = worker("worker", "note", "one more", "--json");
  assert.equal(flood.json?.error?.code, "too-many-notes", flood.stdout);
  assert.match(
    flood.json.error.message,
    new RegExp(`^${w.worker} already has ${MAX_OPEN_NOTES} notes the human has not dismissed`),
  );
  const notes = () => (g.ctx.db.prepare("SELECT count(*) AS n FROM notes").get() as { n: number }).n;
  assert.equal(notes(), MAX_OPEN_NOTES);
  // Dismissing one frees one slot.
  const human = cli(t, g);
  const first = g.ctx.db.prepare("SELECT notification FROM notes ORDER BY seq LIMIT 1").get() as {
    notification: string;
  };
  assert.equal(human("attention", "--dismiss", first.notification).code, 0);
  assert.equal(worker("worker", "note", "now it fits", "--json").code, 0);

  for (let i = 1; i <= MAX_OPEN_QUESTIONS; i++) {
    const r = worker("worker", "consult", "--question", `which port, take ${i}?`, "--json");
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  const asked = worker("worker", "consult", "--question", "and once more?", "--json");
  assert.equal(asked.json?.error?.code, "too-many-consults", asked.stdout);
  assert.equal((g.ctx.db.prepare("SELECT count(*) AS n FROM questions").get() as { n: number }).n, MAX_OPEN_QUESTIONS);
});

test("the sign-in key works once, a new key comes with each sign-in, and a flood of sign-ins never signs the human's browser out", async (t) => {
  const g = reviewGround(t);
  const ctx = openEngine({ env: { DOCKET_HOME: g.home }, cwd: g.project });
  const keys: string[] = [];
  const secret = randomBytes(32).toString("base64url");
  const server = await startWebServer({
    ctx,
    host: "127.0.0.1",
    port: 0,
    secret,
    instance: "caps",
    onLoginKey: (k) => keys.push(k),
    log: () => {},
  });
  t.after(async () => {
    await server.close();
    ctx.close();
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const signIn = (key: string) => fetch(`${origin}/?k=${encodeURIComponent(key)}`, { redirect: "manual" });
  const first = await signIn(secret);
  assert.equal(first.status, 303);
  const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
  assert.equal((await signIn(secret)).status, 403, "the first key is spent");
  assert.equal(keys.length, 1);
  for (let i = 0; i < 70; i++) {
    const r = await signIn(keys.at(-1)!);
    if (r.status !== 303) {
      assert.equal(r.status, 503, `sign-in ${i}`);
      break;
    }
  }
  const still = await fetch(`${origin}/`, { headers: { cookie } });
  assert.equal(still.status, 200, "the human's first session is still signed in");
});

test("locks/ is made 0700 under umask 022, and a worker cannot peek any pane, its own included", async (t) => {
  const server = tmuxServer(t);
  const g = reviewGround(t);
  g.ctx.close();
  const root = tempDir(t, "docket-hostile-peek-");
  const env = cliEnv({ DOCKET_HOME: g.home, HOME: root, TMPDIR: root, DOCKET_TMUX_SOCKET: server.socket });
  const human = (...args: string[]) => docketWith({ env, cwd: g.project, input: "", umask: "022" }, ...args);
  for (const task of ["holds a secret", "the snoop"]) {
    const s = human(
      "spawn",
      "--agent",
      "command",
      "--cmd",
      "echo SECRET-TOKEN-31337; sleep 600",
      "--yes",
      "--json",
      task,
    );
    assert.equal(s.code, 0, s.stderr);
  }
  assert.equal(statSync(join(g.home, "locks")).mode & 0o777, 0o700);
  await waitFor(
    "the secret in w1's pane",
    () => human("peek", "w1", "--json").json?.text?.includes("SECRET-TOKEN-31337"),
    30_000,
  );
  for (const target of ["w1", "w2"]) {
    const r = docket({ env: { ...env, ...workerIdentityEnv(g.home, "w2") }, cwd: g.project }, "peek", target, "--json");
    assert.equal(r.json?.error?.code, "worker-cannot-peek", `${target}: ${r.stdout}`);
    assert.equal(r.stdout.includes("SECRET-TOKEN"), false);
  }
});

/** The most one view reads of one agent record file (src/files/workers/agent-records.ts), written out so the test states it. */
const RECORD_READ_BYTES = 4 * 1024 * 1024;

test("a pi worker's own 30 MB session file costs each view at most 4 MiB of it: ls and verdict read a bounded part, later views catch up, a junk line is never counted", {
  timeout: 240_000,
}, async (t) => {
  const pi = scriptedPi(t);
  const repo = join(pi.root, "repo");
  mkdirSync(repo);
  gitRepo(repo, { "a.txt": "one\n" });
  const run = (...args: string[]) => docket({ env: cliEnv(pi.vars), cwd: repo }, ...args);
  const script = pi.script("spend.json", [
    {
      text: "Done reading.",
      usage: { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 },
      toolCall: {
        name: "docket_done",
        id: "d-1",
        arguments: { outcome: "findings", summary: "read it", evidence: [], recommendations: [], items: [] },
      },
    },
    { text: "Published.", usage: { input: 300, output: 50, cacheRead: 0, cacheWrite: 0 } },
  ]);
  const spawned = run("spawn", "--as", "scout", ...scriptedModelFlags(script), "--yes", "--json", "read a.txt");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  await waitFor("both calls counted", () => run("spend", "--json").json?.total.output === 250, 90_000, 500);
  const sessionDir = join(pi.vars.DOCKET_HOME!, "fleet", "w1", "session");
  const [session] = (readdirSync(sessionDir, { recursive: true }) as string[])
    .filter((n) => n.endsWith(".jsonl"))
    .map((n) => join(sessionDir, n));
  assert.ok(session, "pi wrote its session file");
  const offset = () =>
    (ledgerRows(join(pi.vars.DOCKET_HOME!, "ledger.sqlite")).spend_sources as { path: string; offset: number }[]).find(
      (s) => s.path === session,
    )!.offset;
  // pi may still append an entry of its own after its last call: read until all it wrote is read.
  await waitFor(
    "everything pi wrote read",
    () => run("spend", "--json").code === 0 && offset() === statSync(session).size,
    30_000,
    200,
  );

  // The worker (same OS user) appends to its own session: 30 MB of junk on one line, a usage line of its own, 2 MB more junk lines.
  const lines = readFileSync(session, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const assistant = JSON.parse(lines.find((l) => l.includes('"role":"assistant"'))!);
  assistant.message.usage = {
    input: 7,
    output: 11,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 18,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const fd = openSync(session, "a");
  try {
    const mib = Buffer.alloc(1024 * 1024, "x");
    for (let i = 0; i < 30; i++) writeSync(fd, mib);
    writeSync(fd, `\n${JSON.stringify(assistant)}\n`);
    for (let i = 0; i < 2 * 1024; i++) writeSync(fd, `${"junk ".repeat(200)}\n`);
  } finally {
    closeSync(fd);
  }
  const size = () => statSync(session).size;

  let at = offset();
  const step = (what: string, r: { code: number; stderr: string }) => {
    assert.equal(r.code, 0, `${what}: ${r.stderr.slice(-400)}`);
    const now = offset();
    assert.ok(
      now - at <= RECORD_READ_BYTES,
      `${what} read ${now - at} bytes of the session, at most ${RECORD_READ_BYTES}`,
    );
    at = now;
  };
  step("ls", run("ls", "--json"));
  step("verdict", run("verdict", "w1", "--json"));
  assert.ok(at < size(), "two views have not read the whole file");
  let views = 0;
  while (at < size() && views < 20) {
    step("spend", run("spend", "--json"));
    views += 1;
  }
  assert.equal(at, size(), "later views read the rest, a bounded part each");
  const total = run("spend", "--json").json.total;
  assert.deepEqual(
    [total.input, total.output],
    [1300 + 7, 250 + 11],
    "the worker's own line counts once; the junk counts nothing",
  );
});

test("peek reads only the end of a harvested pane tail: a worker's 40 MB tail (one 35 MB line in it) still shows its last lines", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const tail = join(g.home, "fleet", w.worker, "pane-tail.txt");
  const fd = openSync(tail, "w");
  try {
    for (let i = 0; i < 4 * 1024; i++) writeSync(fd, `${"junk ".repeat(200)}\n`);
    const mib = Buffer.alloc(1024 * 1024, "x");
    for (let i = 0; i < 35; i++) writeSync(fd, mib);
    writeSync(fd, "\n$ npm test\n3 passing\n");
  } finally {
    closeSync(fd);
  }
  assert.ok(statSync(tail).size > 32 * 1024 * 1024, "past the whole-file cap");
  const peek = cli(t, g, undefined, { NODE_OPTIONS: "--max-old-space-size=40" })(
    "peek",
    w.worker,
    "--lines",
    "2",
    "--json",
  );
  assert.equal(peek.code, 0, peek.stderr + peek.stdout);
  assert.equal(peek.json.source, "pane-tail");
  assert.equal(peek.json.text, "$ npm test\n3 passing");
});
