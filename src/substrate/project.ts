// Finds the project a command runs in: the git top-level of the working directory, or the directory itself.

import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";

export function projectRootOf(cwd: string): string {
  try {
    const top = execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    if (top) return realpathSync(top);
  } catch {
    // Not a git repository (or git missing): the directory itself is the project.
  }
  return realpathSync(cwd);
}
