// The one git Docket runs: resolved once to an absolute path from the PATH this process started with, and the config
// overrides every git call carries so that no config file can make git run a program (docs/hostile-git.md).

import { spawnSync } from "node:child_process";
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";

let resolved: { path: string; git: string } | undefined;

/**
 * The absolute path of git, found once on this process's PATH (relative PATH entries are skipped: they would resolve
 * against whatever directory a command runs in). Never a child's or a worker's PATH: only this process's own, which
 * only this process can change (then it is looked up again, as a test's counting git does).
 */
export function gitBinary(): string {
  const path = process.env.PATH ?? "";
  if (resolved?.path === path) return resolved.git;
  resolved = { path, git: findGit(path) };
  return resolved.git;
}

function findGit(path: string): string {
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, "git");
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return realpathSync(candidate);
    } catch {
      // not here: the next PATH entry
    }
  }
  return "git"; // no git at all: running it fails with ENOENT, which every caller reports as git being missing
}

/**
 * `-c` pairs for every git call: settings that start a program (fsmonitor, hooks, pagers, editors, ssh, credential
 * helpers, signing programs, external diff), reach the network, or run maintenance are switched off. Command-line
 * config outranks every config file, so a key set in any file (included ones too) is overridden.
 */
export const NEUTRAL_CONFIG: readonly string[] = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.editor=false",
  "core.sshCommand=false",
  "core.askPass=",
  "core.untrackedCache=false",
  "core.splitIndex=false",
  "sequence.editor=false",
  "diff.external=",
  "diff.ignoreSubmodules=dirty",
  "status.submoduleSummary=false",
  "submodule.recurse=false",
  "credential.helper=",
  "gpg.program=false",
  "gpg.ssh.program=false",
  "gpg.x509.program=false",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "protocol.allow=never",
  "gc.auto=0",
  "maintenance.auto=false",
  "fetch.recurseSubmodules=false",
];

export const neutralArgs = (): string[] => NEUTRAL_CONFIG.flatMap((kv) => ["-c", kv]);

/**
 * `-c` pairs that switch off every filter driver the config of the repository at `cwd` defines. A worker can write
 * that config with its own `git config` (a worktree shares it), and `git apply` in the checkout runs clean and smudge
 * filters: so the promotion path runs none, the human's own included (docs/hostile-git.md says what that costs).
 */
export function filterOverrides(cwd: string): string[] {
  const r = spawnSync(gitBinary(), [...neutralArgs(), "config", "-z", "--name-only", "--get-regexp", "^filter\\."], {
    cwd,
    env: envWithoutGit(),
    encoding: "utf8",
  });
  const drivers = new Set(
    (r.stdout ?? "")
      .split("\0")
      .map((k) => /^filter\.(.+)\.[^.]+$/s.exec(k)?.[1])
      .filter((d): d is string => d !== undefined),
  );
  return [...drivers].flatMap((d) =>
    ["clean=", "smudge=", "process=", "required=false"].flatMap((kv) => ["-c", `filter.${d}.${kv}`]),
  );
}

/** The process environment without any GIT_* variable: which repository and config git reads is set by the caller. */
export function envWithoutGit(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  return { ...env, GIT_TERMINAL_PROMPT: "0", ...extra };
}
