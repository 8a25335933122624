// A command worker spawned with --host on the test's own sshd (a second Unix user): it publishes through the forwarded
// door, its frozen patch is approved and promoted here; peek and tell reach its pane over ssh; its ssh master is killed
// mid-run and its next call still lands exactly once; only its task, env file and workspace reach the host; delete cleans it. Use → Worker on the
// host gets the reviewed source byte for byte.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { addLoopHost, remoteGround, REMOTE_USER } from "../../support/sshd.js";
import { endsWithLine, fileOnce, waitFor } from "../../support/wait.js";
import { walk } from "../../support/file-tree.js";
import { masterPid } from "../../../src/substrate/ssh/tunnel.js";

/** The worker: edits, publishes v1, reads one told line, edits again, publishes v2 (the same call sent twice). */
const SCRIPT = [
  "echo peek-mark-1",
  "printf 'from the host\\n' >> a.txt",
  'echo "body one" | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary v1 --call-id c1 > ../done1.out 2>&1',
  "IFS= read -r line; printf '%s\\n' \"$line\" > ../told.txt",
  "printf 'second edit\\n' >> a.txt",
  'echo "body two" | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary v2 --call-id c2 > ../done2.out 2>&1',
  'echo "body two" | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary v2 --call-id c2 > ../done3.out 2>&1',
  "sleep 600",
].join("\n");

test("a command worker on a host publishes through the forwarded door, survives its master being killed, and is promoted here", {
  timeout: 240_000,
}, async (t) => {
  const ground = await remoteGround(t);
  const { host, repo, home, run } = ground;

  const target = addLoopHost(ground);
  const spawned = run("spawn", "--agent", "command", "--cmd", SCRIPT, "--host", "loop", "--yes", "remote edit");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  const w = spawned.json.worker as string;
  const ls = (): {
    workers: { worker: string; deliverable: string | null; host?: string; hostReachable?: boolean }[];
  } => run("ls").json;
  const v1 = await waitFor(
    "v1 through the forwarded door",
    () => ls().workers.find((x) => x.worker === w && x.deliverable?.endsWith(":1")),
    60_000,
  );
  assert.equal(v1.host, "loop");
  assert.equal(v1.hostReachable, true);
  assert.match(run("diff", w).stdout + run("report", w).stdout, /from the host/);

  const peek = run("peek", w);
  assert.equal(peek.code, 0, peek.stdout);
  assert.match(peek.json.text, /peek-mark-1/);

  // The master dies hard while the worker runs; the next calls (tell over ssh, the worker's done over the tunnel) land.
  const first = masterPid(target);
  assert.ok(first !== undefined, "a master connection serves the host");
  process.kill(first, "SIGKILL");
  const told = "hostile $(touch /tmp/pwned) 'quoted' `id`";
  const tell = run("tell", w, told);
  assert.equal(tell.code, 0, tell.stdout + tell.stderr);
  const remoteWorker = join(host.remoteDir, "workers", w);
  assert.equal(
    await waitFor("the told line on the host", fileOnce(join(remoteWorker, "told.txt"), endsWithLine)),
    `${told}\n`,
  );
  await waitFor(
    "v2 after the master was killed",
    () => ls().workers.find((x) => x.worker === w && x.deliverable?.endsWith(":2")),
    60_000,
  );
  // The shell creates done3.out before the call writes its answer line: wait for the line, not the file.
  const repeated = await waitFor(
    "the repeated call to return",
    fileOnce(join(remoteWorker, "done3.out"), endsWithLine),
    60_000,
  );
  assert.notEqual(masterPid(target), first, "a new master replaced the killed one");
  assert.deepEqual(
    readdirSync(join(home, "fleet", w, "deliverables")).sort(),
    ["v1.json", "v2.json"],
    "the repeated done landed once",
  );
  assert.match(repeated, /2/);

  // Only the task, the env file (0600) and the workspace are on the host; nothing of the home.
  const files = walk(remoteWorker).filter((p) => !p.startsWith("workspace/") || p === "workspace/");
  assert.deepEqual(
    files.sort(),
    ["capture.index", "done1.out", "done2.out", "done3.out", "launch.env", "task.md", "told.txt", "workspace/"].sort(),
  );
  assert.equal(statSync(join(remoteWorker, "launch.env")).mode & 0o777, 0o600);
  assert.equal(
    statSync(join(remoteWorker, "launch.env")).uid,
    Number(execFileSync("id", ["-u", REMOTE_USER], { encoding: "utf8" })),
  );
  const top = walk(host.remoteDir).filter((p) => !p.startsWith("repo.git/") && !p.startsWith(`workers/${w}/`));
  assert.deepEqual(top.sort(), ["door/", `door/${w}/`, `door/${w}/1.sock`, "tmux.sock", "workers/"].sort());
  for (const p of walk(host.remoteHome))
    assert.doesNotMatch(
      p,
      /ledger\.sqlite|deliverables\/|config\.json|\.pi\//,
      `${relative("/", p)} is of a Docket home`,
    );
  const envText = readFileSync(join(remoteWorker, "launch.env"), "utf8");
  assert.match(envText, new RegExp(`DOCKET_DOOR='${join(host.remoteDir, "door", w, "1.sock")}'`));
  assert.doesNotMatch(envText, new RegExp(home), "no path of the local home reaches the host's env");

  const approved = run("approve", `worker-deliverable:${w}:2`);
  assert.equal(approved.code, 0, approved.stdout + approved.stderr);
  // Use → Worker on the host (the user's worker.host): the reviewed source reaches the host byte for byte, and the
  // host's task.md names that copy.
  const configFile = join(home, "config.json");
  writeFileSync(
    configFile,
    JSON.stringify({ ...JSON.parse(readFileSync(configFile, "utf8")), worker: { host: "loop" } }),
  );
  const used = run(
    "use",
    w,
    "--worker",
    "--agent",
    "command",
    "--cmd",
    "sleep 600",
    "--task",
    "carry on from the host",
    "--yes",
  );
  assert.equal(used.code, 0, used.stdout + used.stderr);
  const w2 = used.json.worker as string;
  const sourceHere = readFileSync(join(home, "fleet", w2, "source-deliverable.md"));
  const sourceThere = join(host.remoteDir, "workers", w2, "source-deliverable.md");
  assert.ok(sourceHere.toString("utf8").includes("body two"), "the source is v2's body");
  assert.deepEqual(readFileSync(sourceThere), sourceHere, "byte-exact on the host");
  assert.ok(readFileSync(join(host.remoteDir, "workers", w2, "task.md"), "utf8").includes(`- Sidecar: ${sourceThere}`));
  assert.equal(run("delete", w2, "--yes", "--force").code, 0);
  assert.ok(!existsSync(sourceThere));

  const promoted = run("promote", `worker-deliverable:${w}:2`, "--yes");
  assert.equal(promoted.code, 0, promoted.stdout + promoted.stderr);
  assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "one\nfrom the host\nsecond edit\n");

  const attach = run("attach", w);
  assert.equal(attach.code, 0, attach.stdout);
  assert.equal(attach.json.switched, false);
  assert.match(attach.json.command, /^ssh .* -t -- loop /);
  // Printed for a local shell to copy: the remote line (each word quoted for the host's shell) is quoted once more.
  assert.ok(
    attach.json.command.includes(`'\\''${join(host.remoteDir, "tmux.sock")}'\\'' '\\''attach-session'\\''`),
    attach.json.command,
  );

  const deleted = run("delete", w, "--yes", "--force");
  assert.equal(deleted.code, 0, deleted.stdout + deleted.stderr);
  assert.ok(!existsSync(remoteWorker), "delete removed the worker's directory on the host");
  assert.ok(!existsSync(join(host.remoteDir, "door", w)), "and its door sockets");
  const windows = spawnSync(
    "runuser",
    [
      "-u",
      REMOTE_USER,
      "--",
      "tmux",
      "-S",
      join(host.remoteDir, "tmux.sock"),
      "list-windows",
      "-a",
      "-F",
      "#{window_name}",
    ],
    { encoding: "utf8" },
  );
  assert.ok(
    windows.status !== 0 ? /no server running/.test(windows.stderr) : !new RegExp(`^${w}$`, "m").test(windows.stdout),
    "its window is gone from the host's tmux",
  );
});
