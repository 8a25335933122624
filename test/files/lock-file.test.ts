// The lock file across real processes: holders never overlap, a live holder is waited for (then refused by name),
// and a lock whose holder died or outlived its limit is taken over.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { withLockFile } from "../../src/files/lock-file.js";
import { tempDir } from "../support/temp.js";

const LOCK_MODULE = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "files", "lock-file.js");

/** A child process that takes the lock, logs `in`/`out` around a short hold, and exits. */
function holder(lock: string, log: string, name: string): Promise<number> {
  const program = `
    import { appendFileSync } from "node:fs";
    const { withLockFile } = await import(${JSON.stringify(LOCK_MODULE)});
    const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    withLockFile(${JSON.stringify(lock)}, () => {
      appendFileSync(${JSON.stringify(log)}, "in ${name}\\n");
      sleep(40);
      appendFileSync(${JSON.stringify(log)}, "out ${name}\\n");
    }, { what: "the test resource", timeoutMs: 60000, pollMs: 5 });`;
  return new Promise((done) =>
    spawn(process.execPath, ["--input-type=module", "-e", program], { stdio: "inherit" }).on("close", (code) =>
      done(code ?? -1),
    ),
  );
}

test("processes holding the same lock file never overlap, and the file is gone once the last one is done", async (t) => {
  const dir = tempDir(t);
  const lock = join(dir, "locks", "thing.lock");
  const log = join(dir, "log.txt");
  const codes = await Promise.all(Array.from({ length: 6 }, (_, i) => holder(lock, log, `p${i}`)));
  assert.deepEqual(codes, [0, 0, 0, 0, 0, 0]);
  const lines = readFileSync(log, "utf8").trim().split("\n");
  assert.equal(lines.length, 12);
  for (let i = 0; i < lines.length; i += 2) {
    assert.match(lines[i]!, /^in p\d$/);
    assert.equal(
      lines[i + 1],
      lines[i]!.replace("in", "out"),
      `no other holder entered between ${lines[i]} and its end`,
    );
  }
  assert.equal(existsSync(lock), false);
});

test("a lock held by a live process is waited for and then refused, naming the holder; nothing ran", (t) => {
  const lock = join(tempDir(t), "thing.lock");
  writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() }));
  let ran = false;
  assert.throws(
    () => withLockFile(lock, () => (ran = true), { what: "the pi model listing", timeoutMs: 100 }),
    (e: { code?: string; message?: string }) =>
      e.code === "lock-busy" &&
      e.message === `the pi model listing is busy: ${lock} is held by process ${process.pid} for 0 s`,
  );
  assert.equal(ran, false);
  assert.ok(existsSync(lock), "a live holder's lock is left alone");
});

test("a lock whose holder died, or that outlived its limit, is taken over at once", (t) => {
  const lock = join(tempDir(t), "thing.lock");
  const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  writeFileSync(lock, JSON.stringify({ pid: Number(gone.stdout), host: hostname(), at: Date.now() }));
  assert.equal(
    withLockFile(lock, () => "mine", { what: "x", timeoutMs: 0 }),
    "mine",
  );
  assert.equal(existsSync(lock), false);
  writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() - 60_000 }));
  assert.equal(
    withLockFile(lock, () => "mine again", { what: "x", timeoutMs: 0, staleMs: 30_000 }),
    "mine again",
  );
});
