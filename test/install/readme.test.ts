// The README's set-up and first-session commands, run as written in a fresh shell on a fresh copy of the tree, with a
// throwaway HOME and npm prefix: each exits 0, `docket` is on the PATH after set-up, and `git diff` shows the change.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, resolve } from "node:path";
import { tempDir } from "../support/temp.js";
import { tmuxServer } from "../support/tmux.js";

const ROOT = resolve(import.meta.dirname, "../../..");

/** The first ```bash block under a `## <title>` heading of the README. */
function bashBlock(readme: string, title: string): string[] {
  const section = readme.split(/^## /m).find((s) => s.startsWith(`${title}\n`));
  assert.ok(section, `the README has a "## ${title}" section`);
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, `"## ${title}" holds a bash block`);
  return block.split("\n").filter((l) => l.trim() !== "");
}

test("the README's set-up and first session run as written in a fresh shell", { timeout: 30 * 60_000 }, (t) => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const setup = bashBlock(readme, "Set up");
  const session = bashBlock(readme, "First session");
  assert.match(setup[0]!, /^npm ci && npm link --ignore-scripts && docket demo\b/);
  assert.match(setup[1]!, /^npm test\b/);

  const dir = tempDir(t, "docket-readme-");
  const [clone, home, prefix, tmp] = ["clone", "home", "prefix", "tmp"].map((d) => join(dir, d)) as [
    string,
    string,
    string,
    string,
  ];
  for (const d of [clone, home, prefix, tmp]) mkdirSync(d);
  // A fresh clone: the tracked and untracked-but-not-ignored files, no node_modules, no dist.
  if (spawnSync("git", ["rev-parse", "--is-inside-work-tree"], { cwd: ROOT }).status === 0) {
    // Never a node_modules or dist that is a symlink (a worktree sharing another's): npm ci would empty what it points at.
    const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8" })
      .split("\0")
      .filter((f) => f !== "" && !/^(node_modules|dist)(\/|$)/.test(f))
      .join("\0");
    execFileSync("sh", ["-c", `tar --null -T - --ignore-failed-read -c | tar -x -C "$0"`, clone], {
      cwd: ROOT,
      input: files,
    });
  } else {
    // A copy of a tree that is not a repository (CI's clean copy): everything but what a build or a run made.
    cpSync(ROOT, clone, {
      recursive: true,
      filter: (src) => !/^(node_modules|dist|\.shots)(\/|$)/.test(relative(ROOT, src)),
    });
  }

  const env: NodeJS.ProcessEnv = {
    PATH: `${join(prefix, "bin")}:${process.env.PATH}`, // npm's global bin is on a user's PATH
    HOME: home,
    LANG: "C.UTF-8",
    TMPDIR: tmp,
    npm_config_prefix: prefix,
    // The packages themselves come from the machine's npm cache when they are there (offline CI), else the registry.
    npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? homedir(), ".npm"),
    npm_config_prefer_offline: "true",
    // The session's workers get a private tmux server, never the user's; the README's commands do not say which.
    DOCKET_TMUX_SOCKET: tmuxServer(t).socket,
  };
  for (const name of ["npm_package_config_node_gyp_nodedir", "npm_package_config_node_gyp_jobs"])
    if (process.env[name]) env[name] = process.env[name];

  const shell = (script: string, cwd: string) =>
    spawnSync("bash", ["-c", script], { cwd, env, encoding: "utf8", timeout: 28 * 60_000, maxBuffer: 64 << 20 });
  // Set-up: the first command (the second, npm test, is this suite itself).
  const installed = shell(setup[0]!, clone);
  assert.equal(installed.status, 0, `${setup[0]}\n${installed.stdout.slice(-4000)}\n${installed.stderr.slice(-4000)}`);
  assert.match(installed.stdout, /Done in .*3 files promoted/);
  // The demo's closing hints, as written, from the set-up shell's state (docket on the PATH).
  const hints = installed.stdout
    .split("\n")
    .filter((l) => /^ {2}(cd |DOCKET_HOME=)/.test(l))
    .map((l) => l.trim());
  assert.ok(hints.length >= 4, installed.stdout);
  for (const hint of hints) {
    const r = shell(hint, home);
    assert.equal(r.status, 0, `${hint}\n${r.stdout}\n${r.stderr}`);
  }

  // First session: one shell, so `cd` carries over; the trap names the first line that exits non-zero.
  const script = ["set -eo pipefail", "trap 'echo \"FAILED($?): $BASH_COMMAND\" >&2' ERR", ...session].join("\n");
  const played = shell(script, home);
  assert.equal(played.status, 0, `${played.stdout.slice(-4000)}\n${played.stderr.slice(-4000)}`);
  assert.match(played.stdout, /w1 is ready/);
  assert.match(played.stdout, /^\+hello, world$/m, "git diff shows the promoted change");
});
