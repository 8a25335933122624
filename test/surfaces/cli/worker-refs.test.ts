// One rule for worker refs in every verb: exactly w<N>. A bare number, W<N> or w0<N> is refused with
// "did you mean w<N>?" (exit 1), never taken for that worker, and nothing is written.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";
import { tmuxServer } from "../../support/tmux.js";

const VERBS: string[][] = [
  ["approve"],
  ["reject"],
  ["verdict"],
  ["promote", "--yes"],
  ["report"],
  ["diff"],
  ["show"],
  ["peek"],
  ["delete", "--yes"],
  ["respawn"],
  ["discard", "--yes"],
  ["tell", "@", "hello"],
  ["answer", "@", "yes"],
  ["revise", "@", "again"],
  ["dispatch", "@", "t1"],
];

test("a worker ref that only resembles w1 is refused in every verb with the id it resembles", {
  timeout: 120_000,
}, (t) => {
  const repo = gitRepo(tempDir(t));
  const env = cliEnv({
    HOME: tempDir(t),
    DOCKET_HOME: join(tempDir(t), "home"),
    DOCKET_TMUX_SOCKET: tmuxServer(t).socket,
  });
  jsonOf(docket({ env, cwd: repo }, "item", "add", "a todo", "--json"));
  for (const verb of VERBS) {
    for (const ref of ["1", "W1", "w01"]) {
      const args = verb.includes("@") ? verb.map((a) => (a === "@" ? ref : a)) : [...verb, ref];
      const error = jsonOf(docket({ env, cwd: repo }, ...args, "--json"), 1).error;
      assert.equal(error.code, "bad-worker-ref", `${args.join(" ")}: ${JSON.stringify(error)}`);
      assert.equal(error.hint, "did you mean w1?", args.join(" "));
    }
  }
  assert.deepEqual(jsonOf(docket({ env, cwd: repo }, "log", "--json")).decisions, [], "no decision was recorded");
  assert.equal(
    jsonOf(docket({ env, cwd: repo }, "item", "ls", "--json")).items[0].state,
    "open",
    "nothing was dispatched",
  );
});
