// The worker commands at their edges through the real CLI: spawning outside git (the home refused, a folder too large
// refused, a copied workspace), a launch tmux refuses, and which config may change the default kind.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertExit, docket, jsonOf } from "../../support/docket-cli.js";
import { tempDir } from "../../support/temp.js";
import { waitFor } from "../../support/wait.js";
import { fixture, mkdirp, show } from "../../support/cli-workers.js";

test("spawn in your home directory outside git is refused (its secrets are never copied) and writes nothing, even with the Docket home inside it", (t) => {
  const f = fixture(t);
  const home = f.env.HOME!;
  writeFileSync(join(home, "secret.key"), "PRIVATE\n");
  const r = docket({ env: f.env, cwd: home }, "spawn", "--agent", "command", "--cmd", "sleep 60", "--json", "tidy");
  assertExit(r, 1);
  assert.equal(r.json.error.code, "spawn-outside-repository");
  assert.match(
    r.json.error.message,
    /is your home directory and not a git repository: Docket will not copy it .*; nothing was started$/,
  );
  assert.equal(existsSync(join(f.home, "fleet", "w1")), false);
  assert.deepEqual(jsonOf(f.run("ls", "--all", "--json")).workers, []);
});

test("outside git a folder too large to copy is refused with what to do, before anything is written", (t) => {
  const f = fixture(t);
  const big = mkdirp(join(tempDir(t), "big"));
  for (let d = 0; d < 6; d++) {
    mkdirp(join(big, `d${d}`));
    for (let i = 0; i < 1_000; i++) writeFileSync(join(big, `d${d}`, `f${i}.txt`), "x");
  }
  const r = docket({ env: f.env, cwd: big }, "spawn", "--agent", "command", "--cmd", "sleep 60", "--json", "tidy");
  assertExit(r, 1);
  assert.equal(r.json.error.code, "spawn-copy-too-large");
  assert.match(
    r.json.error.message,
    /is not a git repository, so the worker's workspace would be a copy of it, and it holds more than 5,000 files or 256 MB \(counting stopped at 5,001 files, 1 MB\); nothing was started$/,
  );
  assert.match(r.json.error.hint, /`git init`/);
  assert.equal(existsSync(join(f.home, "fleet", "w1")), false);
  assert.deepEqual(jsonOf(f.run("ls", "--all", "--json")).workers, []);
});

test("outside a git repository a writable worker gets a copied workspace and the summary says so", async (t) => {
  const f = fixture(t);
  const plain = mkdirp(join(tempDir(t), "plain"));
  writeFileSync(join(plain, "notes.md"), "# notes\n");
  const env = { ...f.env, DOCKET_HOME: join(plain, ".docket-home") }; // the Docket home inside the copied folder is left out
  const r = docket(
    { env, cwd: plain },
    "spawn",
    "--agent",
    "command",
    "--cmd",
    "ls > listing.txt; sleep 60",
    "--json",
    "tidy",
    "notes",
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.execution.workspace, "isolated");
  assert.ok(
    r.json.summary.some((l: string) => /is not a git repository; copied the tree \(without \.git\)/.test(l)),
    r.json.summary.join("\n"),
  );
  const listing = join(plain, ".docket-home", "fleet", "w1", "workspace", "listing.txt");
  await waitFor("the listing", () => existsSync(listing) && readFileSync(listing, "utf8").includes("notes.md"));
  assert.equal(existsSync(join(plain, ".docket-home", "fleet", "w1", "workspace", ".docket-home")), false);
});

test("a launch tmux refuses marks the worker failed with tmux's error and removes its workspace and directory", (t) => {
  const f = fixture(t);
  const broken = { ...f.env, DOCKET_TMUX_SOCKET: join(f.home, "no", "such", "dir", "sock") };
  const r = docket(
    { env: broken, cwd: f.repo },
    "spawn",
    "--agent",
    "command",
    "--cmd",
    "sleep 60",
    "--json",
    "doomed",
  );
  assertExit(r, 1);
  assert.equal(r.json.error.code, "launch-failed");
  assert.match(r.json.error.message, /^could not start w1 in tmux: /);
  const w = show(f, "w1");
  assert.equal(w.persistedState, "failed");
  assert.equal(w.lastError, r.json.error.message);
  assert.equal(existsSync(join(f.home, "fleet", "w1")), false);
  assert.doesNotMatch(execFileSync("git", ["worktree", "list"], { cwd: f.repo, encoding: "utf8" }), /w1/);
});

test("a project config may not make spawns default to a kind without the plan gate; the user config may", async (t) => {
  const { run, repo, home } = fixture(t);
  mkdirSync(join(repo, ".docket", "kinds"), { recursive: true });
  writeFileSync(join(repo, ".docket", "kinds", "loose.md"), "---\nname: loose\nplan_gate: false\n---\nNo gate.\n");
  writeFileSync(join(repo, ".docket", "config.json"), JSON.stringify({ worker: { defaultKind: "loose" } }));
  const fromProject = run("spawn", "--agent", "command", "--cmd", "sleep 30", "--yes", "--json", "task one");
  assert.equal(fromProject.code, 0, fromProject.stderr);
  assert.equal(fromProject.json.kind, "default");
  assert.ok(
    fromProject.json.summary.some((l: string) =>
      /project config worker.defaultKind "loose" would remove the plan gate/.test(l),
    ),
  );
  writeFileSync(join(home, "config.json"), JSON.stringify({ worker: { defaultKind: "loose" } }));
  writeFileSync(join(repo, ".docket", "config.json"), "{}");
  const fromUser = run("spawn", "--agent", "command", "--cmd", "sleep 30", "--yes", "--json", "task two");
  assert.equal(fromUser.code, 0, fromUser.stderr);
  assert.equal(fromUser.json.kind, "loose");
});
