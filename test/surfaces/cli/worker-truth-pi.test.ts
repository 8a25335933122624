// A real pi worker tells the truth about itself: its model's auth error makes it `blocked` in pi's own
// words, and a docket_done the engine refused is on its show, its card and in attention, not hidden in its pane.

import { test } from "node:test";
import assert from "node:assert/strict";
import { cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { scriptedPi, UNGATED_KIND, scriptedModelFlags } from "../../support/scripted-pi.js";
import { tempDir } from "../../support/temp.js";
import { waitFor } from "../../support/wait.js";

function piGround(t: Parameters<typeof scriptedPi>[0] & { after(fn: () => void): void }, steps: unknown[]) {
  const pi = scriptedPi(t);
  const repo = gitRepo(tempDir(t, "docket-repo-"), { "a.txt": "one\n" });
  const run = (...args: string[]) => docket({ env: cliEnv(pi.vars), cwd: repo }, ...args);
  const script = pi.script("steps.json", steps);
  const spawned = run(
    "spawn",
    "--as",
    UNGATED_KIND,
    ...scriptedModelFlags(script),
    "--yes",
    "--json",
    "tell the truth",
  );
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  return run;
}

const AUTH_ERROR = '401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}';

test("a pi worker whose model answers 401 shows blocked with pi's own words, an attention line, in ls and show", {
  timeout: 240_000,
}, async (t) => {
  const run = piGround(t, [{ error: AUTH_ERROR }]);
  const listed = await waitFor(
    "w1 blocked",
    () => {
      const w = jsonOf(run("ls", "--json")).workers.find((x: { worker: string }) => x.worker === "w1");
      return w?.state === "blocked" ? w : undefined;
    },
    120_000,
  );
  assert.match(listed.reason, /^Error: 401 .*invalid x-api-key/);
  const shown = jsonOf(run("show", "w1", "--json"));
  assert.equal(shown.state, "blocked");
  assert.equal(shown.reason, listed.reason);
  assert.ok(shown.liveness === "live", "blocked, not dead: its process is still there for the human to fix");
  const blocked = jsonOf(run("attention", "--json")).notifications.filter(
    (n: { kind: string; worker: string }) => n.kind === "blocked" && n.worker === "w1",
  );
  assert.equal(blocked.length, 1);
  assert.equal(blocked[0].body, listed.reason);
});

test("a pi worker's refused docket_done is on its show, its card and in attention, with the refusal", {
  timeout: 240_000,
}, async (t) => {
  // A docket_done with no text beside it and a blank summary: the engine refuses it (there is nothing to freeze).
  const run = piGround(t, [
    { toolCall: { name: "docket_done", arguments: { outcome: "completed", summary: " " } } },
    { text: "I will wait." },
  ]);
  const shown = await waitFor(
    "w1's refusal",
    () => {
      const w = jsonOf(run("show", "w1", "--json"));
      return w.findings.some((f: { kind: string }) => f.kind === "refused") ? w : undefined;
    },
    120_000,
  );
  assert.match(shown.reason, /^its done call was refused: docket_done needs the deliverable/);
  const card = run("verdict", "w1");
  assert.match(card.stdout, /its done call was refused: docket_done needs the deliverable/, card.stdout + card.stderr);
  const refused = jsonOf(run("attention", "--json")).notifications.filter(
    (n: { kind: string; worker: string }) => n.kind === "refused" && n.worker === "w1",
  );
  assert.equal(refused.length, 1);
  assert.match(refused[0].body, /docket_done needs the deliverable/);
});
