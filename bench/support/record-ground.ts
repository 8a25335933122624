// The ground of the spend-record benches: a scratch directory with a Docket home, a one-file git repository, an
// engine on them, and the environment the real CLI runs in there. `remove` deletes it all.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EngineContext } from "../../src/engine/context.js";
import { openEngine } from "../../src/engine/open.js";
import { gitRepo } from "../../test/support/git.js";

export interface RecordGround {
  root: string;
  home: string;
  repo: string;
  env: Record<string, string>;
  ctx: EngineContext;
  remove(): void;
}

export function recordGround(name: string): RecordGround {
  const root = mkdtempSync(join(tmpdir(), `docket-bench-${name}-`));
  const home = join(root, "home");
  mkdirSync(join(root, "repo"));
  const repo = gitRepo(join(root, "repo"), { "a.txt": "one\n" });
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    DOCKET_HOME: home,
    DOCKET_TMUX_SOCKET: `bench-${name}-${process.pid}`,
    HOME: root,
    TMPDIR: root,
  };
  const ctx = openEngine({ env, cwd: repo });
  return { root, home, repo, env, ctx, remove: () => rmSync(root, { recursive: true, force: true }) };
}
