// A reader that stops early (`docket verdict | head -1`) closes the pipe under a command's output: the command
// still finishes and exits with its own code, and says nothing about the pipe (no EPIPE stack trace).

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { cliEnv, DOCKET_BIN, docket, jsonOf } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";

/** Runs the CLI with its stdout a pipe this side closes at once, without reading a byte. */
function withClosedStdout(env: NodeJS.ProcessEnv, cwd: string, args: string[]) {
  return new Promise<{ code: number | null; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, [DOCKET_BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy(); // the reader is gone before the command printed anything
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stderr }));
  });
}

test("every command's output into a closed pipe ends quietly with the command's own exit code", async (t) => {
  const repo = gitRepo(tempDir(t));
  const env = cliEnv({ HOME: tempDir(t), DOCKET_HOME: join(tempDir(t), "home") });
  // More than a pipe holds (64 KiB), so the command is still writing when the reader is gone.
  const long = "x".repeat(100_000);
  jsonOf(docket({ env, cwd: repo }, "item", "add", long, "--json"));
  const cases: [string[], number][] = [
    [["item", "show", "t1"], 0],
    [["item", "show", "t1", "--json"], 0],
    [["item", "ls"], 0],
    [["verdict"], 0],
    [["log"], 0],
    [["--help"], 0],
    [["spawn", "--help"], 0],
    [["item", "add", long], 0],
    [["show", "w9"], 1],
    [["worker", "--help"], 0],
    [["worker", "todos", "a step", "--json"], 2], // a worker call's refusal (no identity here), into the closed pipe
  ];
  for (const [args, code] of cases) {
    const r = await withClosedStdout(env, repo, args);
    assert.equal(r.code, code, `${args.join(" ").slice(0, 40)}: ${r.stderr.slice(0, 500)}`);
    assert.doesNotMatch(r.stderr, /EPIPE|Unhandled|at .*\.cjs/, `${args.join(" ").slice(0, 40)} said: ${r.stderr}`);
  }
  assert.equal(jsonOf(docket({ env, cwd: repo }, "item", "ls", "--json")).items.length, 2, "the add still landed");
});
