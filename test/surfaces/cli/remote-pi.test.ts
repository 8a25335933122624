// A real pi worker (Docket's scripted model) spawned on the user's default host (worker.host) on the test's own sshd: pi, the extension and the
// steps file are the host's (the steps travel over the ssh channel, like task.md); it publishes through the forwarded
// door, and its frozen patch is approved and promoted here; only its files are on the host.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addLoopHost, remoteGround } from "../../support/sshd.js";
import { waitFor } from "../../support/wait.js";
import { walk } from "../../support/file-tree.js";
import { UNGATED_KIND, writeUngatedKind } from "../../support/scripted-pi.js";

const STEPS = [
  {
    text: "Editing a.txt.",
    toolCall: { name: "write", arguments: { path: "a.txt", content: "one\nwritten by pi on the host\n" } },
  },
  {
    text: "a.txt now says where it was written.",
    toolCall: { name: "docket_done", arguments: { outcome: "completed", summary: "a.txt edited on the host" } },
  },
];

test("a scripted pi worker on the worker.host default publishes through the forwarded door and is promoted here", {
  timeout: 240_000,
}, async (t) => {
  const ground = await remoteGround(t);
  const { host, root, repo, home, run } = ground;
  writeUngatedKind(home);
  const steps = join(root, "steps.json"); // root's own temp dir: the host's user cannot read it, so it must travel
  writeFileSync(steps, JSON.stringify(STEPS));

  addLoopHost(ground);
  // The host is the user's default (worker.host), so no --host: spawn says where the worker runs.
  const configFile = join(home, "config.json");
  writeFileSync(
    configFile,
    JSON.stringify({ ...JSON.parse(readFileSync(configFile, "utf8")), worker: { host: "loop" } }),
  );
  const spawned = run("spawn", "--scripted", steps, "--as", UNGATED_KIND, "edit a.txt");
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  assert.ok(
    spawned.json.summary.includes("Runs on: host loop (worker.host in your config; --local runs it here)"),
    spawned.stdout,
  );
  const w = spawned.json.worker as string;
  const listed = await waitFor(
    "v1 from pi on the host",
    () =>
      run("ls").json.workers.find(
        (x: { worker: string; deliverable: string | null }) => x.worker === w && x.deliverable?.endsWith(":1"),
      ),
    120_000,
  );
  assert.equal(listed.host, "loop");
  assert.match(run("diff", w).stdout, /written by pi on the host/);
  assert.match(run("peek", w).json.text, /a\.txt now says where it was written/);

  const remoteWorker = join(host.remoteDir, "workers", w);
  assert.equal(
    readFileSync(join(remoteWorker, "steps.json"), "utf8"),
    JSON.stringify(STEPS),
    "the steps file reached the host byte for byte",
  );
  const files = walk(remoteWorker).filter((p) => !/^(workspace|session)\/./.test(p));
  assert.deepEqual(
    files.sort(),
    ["capture.index", "launch.env", "session/", "steps.json", "task.md", "workspace/"].sort(),
  );
  assert.ok(
    walk(join(remoteWorker, "session")).some((p) => p.endsWith(".jsonl")),
    "pi's session is kept on the host",
  );
  assert.doesNotMatch(
    readFileSync(join(remoteWorker, "launch.env"), "utf8"),
    new RegExp(root),
    "no path of this machine's temp dirs reaches the host's env",
  );
  for (const p of walk(host.remoteHome))
    assert.doesNotMatch(p, /ledger\.sqlite|deliverables\/|config\.json|^\.pi\//, `${p} is of a Docket home`);

  assert.ok(
    existsSync(join(`${host.remoteDir}-pi`, "settings.json")),
    "pi read and wrote the host's own agent dir (its environment there)",
  );
  assert.equal(run("approve", `worker-deliverable:${w}:1`).code, 0);
  const promoted = run("promote", `worker-deliverable:${w}:1`, "--yes");
  assert.equal(promoted.code, 0, promoted.stdout + promoted.stderr);
  assert.equal(readFileSync(join(repo, "a.txt"), "utf8"), "one\nwritten by pi on the host\n");
  assert.equal(run("delete", w, "--yes", "--force").code, 0);
});
