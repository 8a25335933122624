// Many `docket spawn`s at the same moment on one repository, through the real CLI in real tmux (private
// socket), real git worktrees and one real ledger: every start completes or leaves no trace, and the cap holds.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { cliGround } from "../../support/cli-workers.js";
import { docket, docketAsync, type CliRun } from "../../support/docket-cli.js";
import type { TmuxServer } from "../../support/tmux.js";

interface Burst {
  repo: string;
  home: string;
  server: TmuxServer;
  env: NodeJS.ProcessEnv;
  spawnAll(cmds: string[], firstTask: number): Promise<CliRun[]>;
}

function burstFixture(t: { after(fn: () => void): void }, config: Record<string, unknown>): Burst {
  const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/f${i}.txt`, `file ${i}\n`]));
  const { repo, home, server, env } = cliGround(t, { files, config });
  return {
    repo,
    home,
    server,
    env,
    spawnAll: (cmds, firstTask) =>
      Promise.all(
        cmds.map((cmd, i) =>
          docketAsync(
            { env, cwd: repo },
            "spawn",
            "--agent",
            "command",
            "--cmd",
            cmd,
            "--json",
            `burst task ${firstTask + i}`,
          ),
        ),
      ),
  };
}

interface Row {
  id: string;
  state: string;
  window_id: string | null;
  pane_id: string | null;
  last_error: string | null;
}

function rows(b: Burst): Row[] {
  const db = new Database(join(b.home, "ledger.sqlite"), { readonly: true });
  try {
    return db
      .prepare("SELECT id, state, window_id, pane_id, last_error FROM workers WHERE deleted_at IS NULL ORDER BY seq")
      .all() as Row[];
  } finally {
    db.close();
  }
}

/** Window id → name on the private server. */
function windows(b: Burst): Map<string, string> {
  const out = b.server.tmux("list-windows", "-a", "-F", "#{window_id} #{window_name}");
  return new Map(
    out
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(" ") as [string, string]),
  );
}

/** Worktree path → admin name, as the parent repository records them (the main checkout excluded). */
function worktrees(b: Burst): Map<string, string> {
  const list = execFileSync("git", ["worktree", "list", "--porcelain"], { cwd: b.repo, encoding: "utf8" });
  const paths = list
    .split("\n")
    .filter((l) => l.startsWith("worktree "))
    .map((l) => l.slice("worktree ".length))
    .slice(1);
  const admin = new Map<string, string>();
  const adminDir = join(b.repo, ".git", "worktrees");
  for (const name of existsSync(adminDir) ? readdirSync(adminDir) : []) {
    const gitdir = readFileSync(join(adminDir, name, "gitdir"), "utf8").trim();
    admin.set(gitdir.replace(/\/\.git$/, ""), name);
  }
  return new Map(paths.map((p) => [p, admin.get(p) ?? "?"]));
}

/** Every started worker has its own window and worktree, and no row is left starting or without its window. */
function assertFleet(b: Burst, started: string[]): void {
  const all = rows(b);
  assert.deepEqual(
    all.filter((r) => r.state === "starting").map((r) => r.id),
    [],
    "nothing is left starting",
  );
  const live = all.filter((r) => started.includes(r.id));
  assert.equal(live.length, started.length);
  const wins = windows(b);
  for (const r of live) {
    assert.ok(r.window_id && r.pane_id, `${r.id} recorded its window`);
    assert.equal(wins.get(r.window_id!), r.id, `${r.id}'s window is its own`);
  }
  assert.equal(new Set(live.map((r) => r.window_id)).size, live.length, "no two workers share a window");
  const trees = worktrees(b);
  assert.deepEqual(
    [...trees].sort(([a], [c]) => a.localeCompare(c, "en", { numeric: true })),
    started
      .map((w) => [join(b.home, "fleet", w, "workspace"), `docket-${w}`] as [string, string])
      .sort(([a], [c]) => a.localeCompare(c, "en", { numeric: true })),
    "one worktree per started worker, each under its own admin name",
  );
}

const failures = (runs: CliRun[]) =>
  runs
    .filter((r) => r.code !== 0)
    .map((r) => r.stdout + r.stderr)
    .join("\n");

test("16 command workers started at the same moment all start, each in its own window and worktree, and the cap counts only live ones", {
  timeout: 170_000,
}, async (t) => {
  const b = burstFixture(t, { maxActive: 20 });
  const first = await b.spawnAll(
    Array.from({ length: 16 }, () => "sleep 600"),
    1,
  );
  assert.equal(failures(first), "", "every spawn of the first burst started");
  const started = first.map((r) => r.json.worker as string);
  assertFleet(b, started);

  // A second burst on the same repository, now racing for the last 4 places under maxActive 20.
  const second = await b.spawnAll(
    Array.from({ length: 8 }, () => "sleep 600"),
    17,
  );
  const ok = second.filter((r) => r.code === 0);
  const refused = second.filter((r) => r.code !== 0);
  assert.equal(ok.length, 4, failures(second));
  for (const r of refused) {
    assert.equal(r.json.error.code, "fleet-cap", r.stdout + r.stderr);
    assert.match(
      r.json.error.message,
      /^fleet cap reached: 20 live workers \(maxActive 20: (w\d+, ){9}w\d+ and 10 more\); nothing was started$/,
    );
  }
  assertFleet(b, [...started, ...ok.map((r) => r.json.worker as string)]);
  assert.equal(rows(b).length, 20, "a refused spawn records no worker");
});

test("a spawn that fails mid-way during a burst leaves no trace, the others start, and the failed one holds no place", {
  timeout: 170_000,
}, async (t) => {
  const b = burstFixture(t, { maxActive: 12 });
  // tmux refuses a command line this long ("command too long"): a real refusal of exactly one window.
  const doomed = `: ${"x".repeat(40_000)}; sleep 600`;
  const cmds = Array.from({ length: 12 }, (_, i) => (i === 5 ? doomed : "sleep 600"));
  const runs = await b.spawnAll(cmds, 1);
  const bad = runs[5]!;
  assert.equal(bad.code, 1, bad.stdout + bad.stderr);
  assert.equal(bad.json.error.code, "launch-failed");
  const victim = /^could not start (w\d+) in tmux: .*command too long/.exec(bad.json.error.message)?.[1];
  assert.ok(victim, bad.json.error.message);
  const others = runs.filter((_, i) => i !== 5);
  assert.equal(failures(others), "", "every other spawn started");
  const started = others.map((r) => r.json.worker as string);
  assertFleet(b, started);

  const failed = rows(b).find((r) => r.id === victim)!;
  assert.equal(failed.state, "failed");
  assert.equal(failed.last_error, bad.json.error.message);
  assert.equal(existsSync(join(b.home, "fleet", victim!)), false, "its directory is gone");

  const run = (...args: string[]) => docket({ env: b.env, cwd: b.repo }, ...args);
  assert.equal(
    run("spawn", "--agent", "command", "--cmd", "sleep 600", "--json", "the twelfth").code,
    0,
    "11 live of 12: the failed one holds no place",
  );
  const full = run("spawn", "--agent", "command", "--cmd", "sleep 600", "--json", "the thirteenth");
  assert.match(
    full.json.error.message,
    /^fleet cap reached: 12 live workers \(maxActive 12: (w\d+, ){9}w\d+ and 2 more\); nothing was started$/,
  );
});
