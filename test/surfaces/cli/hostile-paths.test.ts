// Paths and text from outside are inert in tmux: a project directory, DOCKET_HOME and a task holding
// `#(…)`, `#{…}`, `;`, quotes, spaces, newlines and leading dashes run nothing and reach the worker byte for byte.
// Real CLI, real git, real tmux on a private socket.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docket } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";
import { tmuxServer } from "../../support/tmux.js";
import { waitFor } from "../../support/wait.js";

/** The files a format-expanded `#(touch …)` (or a shell-run `$(touch …)`) in one of the texts would have made. */
function pwned(root: string): string[] {
  return ["project", "home", "task", "shell"]
    .map((tag) => `PWNED-${tag}`)
    .filter((name) => existsSync(join(root, name)));
}

const hostile = (root: string, tag: string) => `${tag}#(touch ${root}/PWNED-${tag}) #{session_name} a;b 'q' "d"`;

test("a project path, DOCKET_HOME and task full of tmux formats and shell syntax run nothing and arrive unchanged", {
  timeout: 120_000,
}, async (t) => {
  const root = tempDir(t);
  const project = join(root, hostile(root, "project"), "-lead\nline");
  mkdirSync(project, { recursive: true });
  gitRepo(project, { "a.txt": "one\n" });
  const home = join(root, hostile(root, "home"), "-home;");
  const server = tmuxServer(t);
  const env = cliEnv({ DOCKET_HOME: home, DOCKET_TMUX_SOCKET: server.socket, HOME: root, TMPDIR: root });
  const run = (...args: string[]) => docket({ env, cwd: project }, ...args);
  const task = `-t #(touch ${root}/PWNED-task) #{window_name}; 'q' "d" $(touch ${root}/PWNED-shell)\nsecond line`;
  // A worker's environment names its door, not the home: it reports its directory into the test's own root.
  const cmd = 'pwd > "$PWD_OUT/pwd-$DOCKET_WORKER_ID.txt"; sleep 60';

  const spawn = (...as: string[]) =>
    run("spawn", "--agent", "command", ...as, "--cmd", cmd, "--env", `PWD_OUT=${root}`, "--yes", "--json", "--", task);
  const shared = spawn("--as", "scout");
  assert.equal(shared.code, 0, shared.stderr + shared.stdout);
  const isolated = spawn();
  assert.equal(isolated.code, 0, isolated.stderr + isolated.stdout);

  const cwdOf = (w: string) =>
    waitFor(`${w}'s working directory`, () => {
      const path = join(root, `pwd-${w}.txt`);
      return existsSync(path) ? readFileSync(path, "utf8").replace(/\n$/, "") : undefined;
    });
  const [sharedCwd, isolatedCwd] = [await cwdOf("w1"), await cwdOf("w2")];
  assert.deepEqual(pwned(root), [], "no format and no shell syntax ran");
  assert.equal(sharedCwd, project, "the read-only worker runs in exactly the project directory");
  assert.equal(
    isolatedCwd,
    join(home, "fleet", "w2", "workspace"),
    "the writer runs in its worktree under DOCKET_HOME",
  );

  for (const w of ["w1", "w2"])
    assert.ok(
      readFileSync(join(home, "fleet", w, "task.md"), "utf8").includes(task),
      `${w}'s task.md holds the task verbatim`,
    );
  const ls = run("ls", "--json");
  assert.deepEqual(
    ls.json.workers.map((w: { task: string }) => w.task),
    [task, task],
  );
  const windows = server.tmux("list-windows", "-a", "-F", "#{window_name}").trim().split("\n").sort();
  assert.deepEqual(windows, ["w1", "w2"]);
  assert.deepEqual(pwned(root), []);
});
