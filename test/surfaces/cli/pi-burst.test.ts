// Six real pi workers (scripted model) started at the same moment on one repository: all reach ready with
// exactly their own sidecars, pi is asked for its models once, and pi's own first-run files leave the cache key alone.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { modelListKey, resolvePiExtraArgs } from "../../../src/substrate/agents/pi.js";
import { cliEnv, docketAsync } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { scriptedPi, UNGATED_KIND, scriptedModelFlags } from "../../support/scripted-pi.js";
import { tempDir } from "../../support/temp.js";
import { waitFor } from "../../support/wait.js";

const COUNTER = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "support", "listing-counter.js");
const WORKERS = 6;

test("six pi workers started at once all reach ready with their own sidecars, and pi lists its models once", {
  timeout: 170_000,
}, async (t) => {
  const pi = scriptedPi(t);
  const repo = join(tempDir(t), "repo");
  mkdirSync(repo);
  gitRepo(repo, { "README.md": "burst\n" });
  const listings = join(pi.root, "listings.log");
  const env = cliEnv({
    ...pi.vars,
    DOCKET_PI_ARGS: `${pi.vars.DOCKET_PI_ARGS} -e ${COUNTER}`,
    DOCKET_TEST_LISTINGS: listings,
  });
  const keyBefore = modelListKey(resolvePiExtraArgs([], env.DOCKET_PI_ARGS), env, repo);

  const scripts = Array.from({ length: WORKERS }, (_, i) =>
    pi.script(`task-${i}.json`, [
      { toolCall: { name: "write", arguments: { path: `notes/task-${i}.txt`, content: `task ${i}\n` } } },
      {
        text: `Findings of task ${i}.`,
        toolCall: {
          name: "docket_done",
          id: `done-${i}`,
          arguments: { outcome: "completed", summary: `task ${i} noted`, evidence: [], recommendations: [], items: [] },
        },
      },
      { text: "done" },
    ]),
  );
  const runs = await Promise.all(
    scripts.map((script, i) =>
      docketAsync(
        { env, cwd: repo },
        "spawn",
        "--as",
        UNGATED_KIND,
        ...scriptedModelFlags(script),
        "--yes",
        "--json",
        `task ${i}`,
      ),
    ),
  );
  assert.deepEqual(
    runs.map((r) => r.code),
    Array(WORKERS).fill(0),
    runs.map((r) => r.stdout + r.stderr).join("\n"),
  );
  assert.equal(readFileSync(listings, "utf8").trim().split("\n").length, 1, "one listing served the whole burst");
  const cached = runs.filter((r) =>
    (r.json.summary as string[]).some((l) => /^Models: from Docket's cache of pi's listing \(\d+s old\)$/.test(l)),
  );
  assert.equal(
    cached.length,
    WORKERS - 1,
    "every spawn but the one that asked pi says its listing came from the cache",
  );

  const home = pi.vars.DOCKET_HOME;
  const states = () => {
    const db = new Database(join(home, "ledger.sqlite"), { readonly: true });
    try {
      return db.prepare("SELECT id, state FROM workers ORDER BY seq").all() as { id: string; state: string }[];
    } finally {
      db.close();
    }
  };
  await waitFor(
    "every worker to be ready",
    () => states().every((w) => w.state === "ready") && states().length === WORKERS,
    150_000,
    250,
  );

  runs.forEach((r, i) => {
    const worker = r.json.worker as string;
    const sidecar = JSON.parse(readFileSync(join(home, "fleet", worker, "deliverables", "v1.json"), "utf8"));
    assert.equal(sidecar.source.workerId, worker);
    assert.equal(sidecar.source.task, `task ${i}`);
    assert.equal(sidecar.body, `Findings of task ${i}.`);
    assert.equal(sidecar.summary, `task ${i} noted`);
    assert.deepEqual(
      sidecar.changeSet.files.map((f: { path: string }) => f.path),
      [`notes/task-${i}.txt`],
      `${worker}'s change set is exactly its own file`,
    );
  });

  assert.ok(
    existsSync(join(pi.vars.PI_CODING_AGENT_DIR, "auth.json")) &&
      existsSync(join(pi.vars.PI_CODING_AGENT_DIR, "settings.json")),
    "pi wrote its own files",
  );
  assert.equal(
    modelListKey(resolvePiExtraArgs([], env.DOCKET_PI_ARGS), env, repo),
    keyBefore,
    "which left the listing's key as it was",
  );
});
