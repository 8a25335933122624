// A command worker's whole life on the test's own sshd: the fleet cap counts it; discard resets a worker's workspace on
// the host; broadcast scores it by its edits on the host and pastes into its pane there; it consults through the
// forwarded door; its dead pane is harvested by `ls`; respawn starts generation 2 on the host with its --env value;
// delete refuses its unpromoted edits on the host; promotion resets its workspace there, and prune then removes it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { addLoopHost, remoteGround } from "../../support/sshd.js";
import { endsWithLine, fileOnce, waitFor } from "../../support/wait.js";

const SCRIPT = [
  'if [ "$DOCKET_GENERATION" = 1 ]; then',
  "  echo harvest-mark-1",
  "  printf 'rate limit\\n' > limiter.txt",
  "  IFS= read -r line; printf '%s\\n' \"$line\" > ../broadcast.txt",
  '  "$DOCKET_NODE" "$DOCKET_BIN" worker consult --question "which region is primary?" > ../consult.out 2>&1',
  "  exit 0",
  "fi",
  "printf '%s\\n' \"$SECRET\" > ../secret2.txt",
  'echo "body" | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary g2 --call-id g2 > ../done2.out 2>&1',
  "sleep 600",
].join("\n");

test("the fleet cap, discard, broadcast, consult, harvest, respawn, delete's refusal, promotion and prune all reach a worker on a host", {
  timeout: 300_000,
}, async (t) => {
  const ground = await remoteGround(t);
  const { host, repo, home, run } = ground;
  addLoopHost(ground);
  const spawned = run(
    "spawn",
    "--agent",
    "command",
    "--cmd",
    SCRIPT,
    "--env",
    "SECRET=kept-for-g2",
    "--host",
    "loop",
    "--yes",
    "tune the rate limiter",
  );
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  const w = spawned.json.worker as string;
  const remoteWorker = join(host.remoteDir, "workers", w);
  await waitFor("its edit on the host", fileOnce(join(remoteWorker, "workspace", "limiter.txt"), endsWithLine));

  // The fleet cap counts the worker on the host (its pane is listed there): with one local worker beside it, a cap
  // of 2 is full.
  const configFile = join(home, "config.json");
  const userConfig = readFileSync(configFile, "utf8");
  const here = run("spawn", "--agent", "command", "--cmd", "sleep 600", "--local", "--yes", "a local neighbour");
  assert.equal(here.code, 0, here.stdout + here.stderr);
  writeFileSync(configFile, JSON.stringify({ ...JSON.parse(userConfig), maxActive: 2 }));
  const capped = run("spawn", "--agent", "command", "--cmd", "true", "--local", "--yes", "one too many");
  assert.equal(capped.json.error?.code, "fleet-cap", capped.stdout);
  assert.match(capped.json.error.message, new RegExp(`maxActive 2: ${w}, ${here.json.worker}\\)`));
  writeFileSync(configFile, userConfig);
  assert.equal(run("delete", here.json.worker, "--yes", "--force").code, 0);

  // Discard drops a host worker's live changes where they are: on the host (its copy here holds only its base).
  const drafter = run(
    "spawn",
    "--agent",
    "command",
    "--cmd",
    "echo draft > draft.txt; sleep 600",
    "--host",
    "loop",
    "--yes",
    "a draft to drop",
  );
  assert.equal(drafter.code, 0, drafter.stdout + drafter.stderr);
  const draft = join(host.remoteDir, "workers", drafter.json.worker, "workspace", "draft.txt");
  await waitFor("the draft on the host", fileOnce(draft, endsWithLine));
  const discarded = run("discard", drafter.json.worker, "--yes");
  assert.equal(discarded.code, 0, discarded.stdout + discarded.stderr);
  assert.match(discarded.json.decision.id, /^dc\d+$/);
  assert.ok(!existsSync(draft), "discard reset its workspace on the host");
  assert.equal(run("delete", drafter.json.worker, "--yes", "--force").code, 0);

  // Broadcast: scored by what it changed on the host (its workspace here is only its base), pasted into its pane there.
  const text = "limiter.txt: the burst size is now 20";
  const sent = run("broadcast", "--yes", text);
  assert.equal(sent.code, 0, sent.stdout + sent.stderr);
  assert.deepEqual(
    sent.json.sent.map((s: { worker: string }) => s.worker),
    [w],
  );
  assert.equal(
    await waitFor("the broadcast in its pane on the host", fileOnce(join(remoteWorker, "broadcast.txt"), endsWithLine)),
    `${text}\n`,
  );

  // Consult through the forwarded door, then the pane dies: `ls` harvests it from the host's tmux.
  assert.match(
    await waitFor("the consult's answer", fileOnce(join(remoteWorker, "consult.out"), endsWithLine)),
    /q\d+/,
  );
  const exited = await waitFor(
    "its exit",
    () =>
      run("ls").json.workers.find(
        (x: { worker: string; state: string }) =>
          x.worker === w && x.state !== "active" && x.state !== "starting" && x.state !== "needs_input",
      ),
    60_000,
  );
  assert.ok(exited);
  const question = run("attention").json;
  assert.match(JSON.stringify(question), /which region is primary\?/);
  const tail = await waitFor(
    "the harvested pane",
    () =>
      existsSync(join(home, "fleet", w, "pane-tail.txt"))
        ? readFileSync(join(home, "fleet", w, "pane-tail.txt"), "utf8")
        : undefined,
    30_000,
  );
  assert.match(tail, /harvest-mark-1/);

  // Respawn: generation 2 on the host, with its --env value read back here.
  const respawned = run("respawn", w);
  assert.equal(respawned.code, 0, respawned.stdout + respawned.stderr);
  assert.deepEqual(respawned.json.missingEnv ?? respawned.json.results?.[0]?.missingEnv ?? [], []);
  assert.equal(
    await waitFor("generation 2's env on the host", fileOnce(join(remoteWorker, "secret2.txt"), endsWithLine)),
    "kept-for-g2\n",
  );
  await waitFor(
    "v1 from generation 2",
    () =>
      run("ls").json.workers.find(
        (x: { worker: string; deliverable: string | null }) => x.worker === w && x.deliverable?.endsWith(":1"),
      ),
    60_000,
  );

  // Its edits on the host are unpromoted: delete refuses them without --force.
  const refused = run("delete", w, "--yes");
  assert.equal(refused.json.error?.code, "unpromoted-changes", refused.stdout);
  assert.ok(existsSync(join(remoteWorker, "workspace", "limiter.txt")));

  assert.equal(run("approve", `worker-deliverable:${w}:1`).code, 0);
  const promoted = run("promote", `worker-deliverable:${w}:1`, "--yes");
  assert.equal(promoted.code, 0, promoted.stdout + promoted.stderr);
  assert.equal(readFileSync(join(repo, "limiter.txt"), "utf8"), "rate limit\n");
  assert.ok(!existsSync(join(remoteWorker, "workspace", "limiter.txt")), "promotion reset its workspace on the host");

  writeFileSync(
    configFile,
    JSON.stringify({ ...JSON.parse(readFileSync(configFile, "utf8")), worker: { pruneAfterHours: 0 } }),
  );
  const pruned = run("prune");
  assert.equal(pruned.code, 0, pruned.stdout + pruned.stderr);
  assert.deepEqual(pruned.json.pruned, [w], pruned.stdout);
  assert.ok(!existsSync(remoteWorker), "prune removed its directory and workspace on the host");
});
