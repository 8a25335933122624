// Claim: a hostile worker cannot flood or reach past its caps. A sidecar too large to read is refused from its size (an
// unrelated card still works in a small heap), a too-large change set is never frozen, notes and consults stop at their
// per-worker caps, the sign-in key works once and never evicts a live browser, locks/ is 0700, and no worker peeks a pane.

import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { openEngine } from "../../src/engine/context.js";
import { startWebServer } from "../../src/surfaces/web/server.js";
import { cliEnv, docket, docketWith } from "../support/docket-cli.js";
import { appWith, publish, reviewGround, reviewWorker, type ReviewGround } from "../support/review-fixture.js";
import type { ProtocolWorker } from "../support/protocol-worker.js";
import { tempDir } from "../support/temp.js";
import { tmuxServer } from "../support/tmux.js";
import { waitFor } from "../support/wait.js";
import { dumpTables } from "../support/work-ledger.js";
import { workerIdentityEnv } from "../support/launch-env.js";

/** The caps as documented (docs/hostile-judgment.md), written out so the test states them. */
const MAX_OPEN_NOTES = 20;
const MAX_OPEN_QUESTIONS = 5;

type T = { after(fn: () => void | Promise<void>): void };

function cli(t: T, g: ReviewGround, as?: ProtocolWorker, extra: Record<string, string> = {}) {
  const scratch = tempDir(t, "docket-hostile-caps-");
  const identity: Record<string, string> = as ? { DOCKET_WORKER_ID: as.worker, DOCKET_GENERATION: String(as.generation), DOCKET_RUN_TOKEN: as.runToken } : {};
  const env = cliEnv({ DOCKET_HOME: g.home, HOME: scratch, TMPDIR: scratch, DOCKET_TMUX_SOCKET: tmuxServer(t).socket, ...identity, ...extra });
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
  assert.ok(!own.json.actions.includes("approve") && !own.json.actions.includes("promote --approve"), "nothing too large to read can be judged");
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

test("a change set too large to read back is refused at done with deliverable-too-large; nothing is frozen", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  writeFileSync(join(w.workspace, "blob.txt"), `${randomBytes(18 * 1024 * 1024).toString("hex").replace(/(.{100})/g, "$1\n")}\n`);
  const before = dumpTables(g.ctx.db);
  const done = cli(t, g, w)("worker", "done", "--outcome", "completed", "--summary", "huge", "--json");
  assert.equal(done.code, 1, done.stdout.slice(0, 400));
  assert.equal(done.json.error.code, "deliverable-too-large");
  assert.deepEqual(dumpTables(g.ctx.db), before, "no version, no state change");
  assert.throws(() => statSync(join(g.home, "fleet", w.worker, "deliverables", "v1.json")), /ENOENT/);
});

test("notes and consults stop at their per-worker caps with a named refusal at the worker's call", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const worker = cli(t, g, w);
  for (let i = 1; i <= MAX_OPEN_NOTES; i++) assert.equal(worker("worker", "note", `note ${i}`, "--json").code, 0);
  const flood = worker("worker", "note", "one more", "--json");
  assert.equal(flood.json?.error?.code, "too-many-notes", flood.stdout);
  assert.match(flood.json.error.message, new RegExp(`^${w.worker} already has ${MAX_OPEN_NOTES} notes the human has not dismissed`));
  const notes = () => (g.ctx.db.prepare("SELECT count(*) AS n FROM notes").get() as { n: number }).n;
  assert.equal(notes(), MAX_OPEN_NOTES);
  // Dismissing one frees one slot.
  const human = cli(t, g);
  const first = g.ctx.db.prepare("SELECT notification FROM notes ORDER BY seq LIMIT 1").get() as { notification: string };
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
  const server = await startWebServer({ ctx, host: "127.0.0.1", port: 0, secret, instance: "caps", onLoginKey: (k) => keys.push(k), log: () => {} });
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
    const s = human("spawn", "--agent", "command", "--cmd", "echo SECRET-TOKEN-31337; sleep 600", "--yes", "--json", task);
    assert.equal(s.code, 0, s.stderr);
  }
  assert.equal(statSync(join(g.home, "locks")).mode & 0o777, 0o700);
  await waitFor("the secret in w1's pane", () => human("peek", "w1", "--json").json?.text?.includes("SECRET-TOKEN-31337"), 30_000);
  for (const target of ["w1", "w2"]) {
    const r = docket({ env: { ...env, ...workerIdentityEnv(g.home, "w2") }, cwd: g.project }, "peek", target, "--json");
    assert.equal(r.json?.error?.code, "worker-cannot-peek", `${target}: ${r.stdout}`);
    assert.equal(r.stdout.includes("SECRET-TOKEN"), false);
  }
});
