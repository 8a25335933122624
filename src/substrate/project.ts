// Finds the project a command runs in: the git top-level of the working directory, or the directory itself.

import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { envWithoutGit, gitBinary, neutralArgs } from "./git/git-binary.js";

export function projectRootOf(cwd: string): string {
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
