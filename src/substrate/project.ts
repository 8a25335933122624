// Finds the project a command runs in: the git top-level of the working directory, or the directory itself.
// Every command asks once; the plain case (a `.git` directory of our own, nothing in its config that moves the
// work tree) is answered from the file system, as git would answer it, and every other case asks git itself.

import { execFileSync } from "node:child_process";
import { lstatSync, readFileSync, realpathSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";
import { envWithoutGit, gitBinary, neutralArgs } from "./git/git-binary.js";

export function projectRootOf(cwd: string): string {
  const plain = plainTopLevel(realpathSync(cwd));
  if (plain !== undefined) return plain;
  try {
    const top = execFileSync(gitBinary(), [...neutralArgs(), "rev-parse", "--show-toplevel"], {
      cwd,
      env: envWithoutGit(),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    if (top) return realpathSync(top);
  } catch {
    // Not a git repository (or git missing): the directory itself is the project.
  }
  return realpathSync(cwd);
}

const lstatOf = (path: string): Stats | undefined => lstatSync(path, { throwIfNoEntry: false });

/**
 * Walks up from `dir` as git's discovery does (neither GIT_DIR nor a ceiling: git runs without the environment's):
 * the first directory holding `.git` is the top level when `.git` is a plain repository directory owned by this user
 * whose config neither sets `worktree` or `bare` nor includes another file. Undefined — ask git — for everything
 * else: a `.git` file (a linked worktree or a submodule), a bare repository on the way, another filesystem (git stops
 * there), someone else's repository (safe.directory), or no repository at all.
 */
function plainTopLevel(dir: string): string | undefined {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  let device: number | undefined;
  for (let at = dir; ; at = dirname(at)) {
    const here = lstatOf(at);
    if (!here || here.dev !== (device ??= here.dev)) return undefined;
    const gitDir = join(at, ".git");
    const dotGit = lstatOf(gitDir);
    if (dotGit) {
      if (!dotGit.isDirectory() || !isRepository(gitDir)) return undefined;
      if (uid === undefined || here.uid !== uid || dotGit.uid !== uid) return undefined;
      return movesWorkTree(join(gitDir, "config")) ? undefined : at;
    }
    if (lstatOf(join(at, "HEAD"))) return undefined; // a bare repository, or inside a .git: git knows
    if (dirname(at) === at) return undefined;
  }
}

const isRepository = (gitDir: string): boolean =>
  Boolean(lstatOf(join(gitDir, "HEAD"))?.isFile() && lstatOf(join(gitDir, "objects"))?.isDirectory());

/** `core.worktree` (or worktree-specific config), a `core.bare` not false, or an include: then only git can say. */
function movesWorkTree(config: string): boolean {
  let text: string;
  try {
    text = readFileSync(config, "utf8");
  } catch {
    return true;
  }
  return text.split("\n").some((raw) => {
    const line = raw.trim().toLowerCase();
    if (line.startsWith("[include") || line.startsWith("worktree")) return true;
    const bare = /^bare\b\s*(?:=\s*(.*))?$/.exec(line);
    return bare !== null && bare[1]?.replace(/\s*[#;].*$/, "") !== "false";
  });
}
