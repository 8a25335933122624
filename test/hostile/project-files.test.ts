// Claim: project files only narrow. A committed kind that turns isolation off, picks a model or thinking, or seeds
// context is skipped with the widening diagnostic and a spawn of it is refused (nothing runs, the checkout untouched);
// a project config's worker.parentSeedPolicy (and a shorter prune) is ignored with a warning; the user's own files still may.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openEngine } from "../../src/engine/open.js";
import { cliEnv, docket } from "../support/docket-cli.js";
import { git, gitRepo } from "../support/git.js";
import { tempDir } from "../support/temp.js";
import { tmuxServer } from "../support/tmux.js";

type T = { after(fn: () => void | Promise<void>): void };

function ground(t: T) {
  const root = tempDir(t, "docket-hostile-project-");
  mkdirSync(join(root, "repo"));
  const repo = gitRepo(join(root, "repo"), { "README.md": "hello\n" });
  const home = join(root, "home");
  const env = cliEnv({
    DOCKET_HOME: home,
    HOME: root,
    TMPDIR: root,
    PI_CODING_AGENT_DIR: join(root, "agent"),
    DOCKET_TMUX_SOCKET: tmuxServer(t).socket,
  });
  const commit = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(repo, path, ".."), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "a cloned project's files");
  };
  return { repo, home, commit, run: (...args: string[]) => docket({ env, cwd: repo }, ...args) };
}

const kindFile = (name: string, extra: string) =>
  `---\nname: ${name}\ndescription: a committed kind\nread_only: false\nplan_gate: false\n${extra}\n---\nDo the task.\n`;

/** Each widening key, alone, in a new kind and in a replacement of the built-in patcher (whose plan gate it keeps). */
const WIDENING: [string, string, RegExp][] = [
  [
    "isolation off",
    "default_worktree: false",
    /would turn worktree isolation off \(default_worktree: false\); skipped/,
  ],
  [
    "a model",
    "model: anthropic/claude-sonnet-4-5",
    /would pick the model \(model: anthropic\/claude-sonnet-4-5\); skipped/,
  ],
  ["thinking", "thinking: xhigh", /would pick the thinking level \(thinking: xhigh\); skipped/],
  [
    "seeded context",
    "parent_seed: full",
    /would seed the worker with your conversation \(parent_seed: full\); skipped/,
  ],
];

test("a committed kind that widens execution is skipped with the diagnostic, and spawning it is refused: no worker runs, no marker lands", (t) => {
  for (const [what, key, diagnostic] of WIDENING) {
    for (const [name, text] of [
      ["fixer", kindFile("fixer", key)],
      ["patcher", kindFile("patcher", `plan_gate: true\n${key}`).replace("plan_gate: false\n", "")],
    ] as const) {
      const g = ground(t);
      g.commit({ [`.docket/kinds/${name}.md`]: text });
      const kinds = g.run("kinds");
      assert.equal(kinds.code, 0, kinds.stderr);
      assert.match(
        kinds.stdout + kinds.stderr,
        new RegExp(`${name}\\.md: project kind ${name} ${diagnostic.source}`),
        `${what} (${name}): ${kinds.stdout}`,
      );
      const listed = g.run("kinds", "--json").json.kinds.find((k: { name: string }) => k.name === name);
      assert.ok(
        name === "fixer" ? listed === undefined : listed.source === "builtin",
        `${what}: the ${name} kind in effect is not the project's`,
      );

      const spawned = g.run(
        "spawn",
        "--as",
        name,
        "--agent",
        "command",
        "--cmd",
        "echo planted > MARKER; sleep 30",
        "--yes",
        "--json",
        "fix it",
      );
      if (name === "fixer") {
        assert.equal(spawned.code, 1, `${what}: ${spawned.stdout}${spawned.stderr}`);
        assert.equal(spawned.json.error.code, "kind-widens");
        assert.match(spawned.json.error.message, diagnostic);
        assert.equal(existsSync(join(g.home, "fleet", "w1")), false, `${what}: no worker was made`);
      } else {
        // The built-in patcher runs instead: isolated, plan-gated, with no model or seed the project chose.
        assert.equal(spawned.code, 0, spawned.stderr);
        assert.equal(spawned.json.execution.workspace, "isolated", what);
        assert.equal(spawned.json.execution.context, "fresh", what);
      }
      assert.equal(existsSync(join(g.repo, "MARKER")), false, `${what}: nothing ran in the human's checkout`);
      assert.equal(git(g.repo, "status", "--porcelain"), "", `${what}: the checkout is clean`);
    }
  }
  // Only project files are held to this, and only widening: a narrowing project kind loads, so does a user's widening one.
  const g = ground(t);
  g.commit({ ".docket/kinds/careful.md": kindFile("careful", "default_worktree: true\nparent_seed: fresh") });
  mkdirSync(join(g.home, "kinds"), { recursive: true });
  writeFileSync(
    join(g.home, "kinds", "mine.md"),
    kindFile("mine", "default_worktree: false\nmodel: anthropic/claude-sonnet-4-5"),
  );
  const kinds = g.run("kinds", "--json").json.kinds as { name: string; source: string }[];
  assert.equal(kinds.find((k) => k.name === "careful")?.source, "project");
  assert.equal(kinds.find((k) => k.name === "mine")?.source, "user");
});

test("a project config's worker.parentSeedPolicy is ignored with a warning; the user's config still sets it", (t) => {
  for (const policy of ["full", "fresh"]) {
    const g = ground(t);
    g.commit({ ".docket/config.json": JSON.stringify({ worker: { parentSeedPolicy: policy, pruneAfterHours: 0 } }) });
    const kinds = g.run("kinds");
    assert.match(
      kinds.stderr,
      /project config worker\.parentSeedPolicy ignored: only your user config may choose what of your conversation reaches a worker/,
    );
    assert.match(
      kinds.stderr,
      /project config worker\.pruneAfterHours 0 would prune sooner than 24; only your user config can/,
    );
    const ctx = openEngine({ env: { DOCKET_HOME: g.home }, cwd: g.repo });
    t.after(() => ctx.close());
    assert.equal(ctx.config().worker.parentSeedPolicy, undefined, `a project's "${policy}" is not in effect`);
    assert.equal(ctx.config().worker.pruneAfterHours, 24);
  }
  const g = ground(t);
  mkdirSync(g.home, { recursive: true });
  writeFileSync(
    join(g.home, "config.json"),
    JSON.stringify({ worker: { parentSeedPolicy: "full", pruneAfterHours: 1 } }),
  );
  g.commit({ ".docket/config.json": JSON.stringify({ worker: { pruneAfterHours: 48 } }) });
  const ctx = openEngine({ env: { DOCKET_HOME: g.home }, cwd: g.repo });
  t.after(() => ctx.close());
  assert.equal(ctx.config().worker.parentSeedPolicy, "full");
  assert.equal(ctx.config().worker.pruneAfterHours, 48, "a project may keep workers longer");
});
