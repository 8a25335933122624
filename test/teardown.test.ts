// A test's temp dirs are removed only after every process it started has exited: its tmux panes' processes, its
// child processes and theirs, and any process still running in (or naming) one of its dirs — even one that writes late.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive, readProc } from "./support/proc.js";
import { teardown } from "./support/teardown.js";
import { tempDir } from "./support/temp.js";
import { tmuxServer } from "./support/tmux.js";
import { waitFor } from "./support/wait.js";

/** Writes into $D for about a second (mkdir -p recreates $D if it was removed meanwhile), then exits. */
const LATE_WRITER = 'for i in 1 2 3 4 5 6 7 8 9 10; do mkdir -p "$D/late/$i"; sleep 0.1; done; exit 0';

/** The pids a script wrote to <dir>/pid ("writer [other]"). */
function pidsIn(dir: string): Promise<number[]> {
  const read = () => (existsSync(join(dir, "pid")) ? readFileSync(join(dir, "pid"), "utf8").trim() : "");
  return waitFor(`pids in ${dir}`, () => (/^\d+( \d+)?$/.test(read()) ? read().split(" ").map(Number) : undefined));
}

function gone(pid: number): boolean {
  const p = readProc(pid);
  return p === undefined || !isAlive(p);
}

/** After the inner test: the late writer is gone (at once, when the teardown waited for it), and so is the dir. */
async function assertRemovedAfterWriter(dir: string, writer: number): Promise<void> {
  await waitFor("the late writer to exit", () => gone(writer));
  assert.equal(existsSync(dir), false, "the dir was removed, and nothing recreated it afterwards");
}

test("a pane process that keeps writing after its tmux server is killed has exited before the dir is removed", async (t) => {
  const outside = tempDir(t, "docket-teardown-out-");
  let dir = "";
  await t.test("a test with a private tmux server", async (inner) => {
    dir = tempDir(inner);
    const server = tmuxServer(inner);
    // Only the server's death (SIGHUP to the pane) starts the late writes, so they always overlap the teardown.
    const script = `echo $$ > "$O/pid"; trap '${LATE_WRITER}' HUP; while :; do sleep 0.05; done`;
    server.tmux("new-session", "-d", "-s", "w", "-e", `D=${dir}`, "-e", `O=${outside}`, "sh", "-c", script);
    await pidsIn(outside);
  });
  const [writer] = await pidsIn(outside);
  assert.ok(gone(writer!), "the pane's process had exited when the teardown ended");
  await assertRemovedAfterWriter(dir, writer!);
});

test("a child process and the process it started are stopped and waited for before the dir is removed", async (t) => {
  const outside = tempDir(t, "docket-teardown-out-");
  let dir = "";
  await t.test("a test with a child process", async (inner) => {
    dir = tempDir(inner);
    const script = `sleep 600 & echo $$ $! > "$O/pid"; trap '${LATE_WRITER}' TERM; while :; do sleep 0.05; done`;
    const child = spawn("sh", ["-c", script], { env: { ...process.env, D: dir, O: outside }, stdio: "ignore" });
    teardown(inner).child(child);
    await pidsIn(outside);
  });
  const [writer, grandchild] = await pidsIn(outside);
  assert.ok(
    gone(writer!) && gone(grandchild!),
    "the child and its child (sleep 600) had exited when the teardown ended",
  );
  await assertRemovedAfterWriter(dir, writer!);
});

test("a process nobody registered that still names the test's dir is waited for before the dir is removed", async (t) => {
  const outside = tempDir(t, "docket-teardown-out-");
  let dir = "";
  await t.test("a test whose command left a process behind", async (inner) => {
    dir = tempDir(inner);
    // Like a daemonised worker: detached, not registered; it starts writing when the test body ends.
    const script = `echo $$ > "$O/pid"; while [ ! -e "$O/go" ]; do sleep 0.02; done; ${LATE_WRITER}`;
    spawn("sh", ["-c", script], {
      env: { ...process.env, D: dir, O: outside },
      stdio: "ignore",
      detached: true,
    }).unref();
    await pidsIn(outside);
    writeFileSync(join(outside, "go"), "");
  });
  const [writer] = await pidsIn(outside);
  assert.ok(gone(writer!), "the straggler had exited when the teardown ended");
  await assertRemovedAfterWriter(dir, writer!);
});
