// Creates a fresh git repository with given files and one commit (the demo's scratch project).
// Argument arrays only; a fixed identity so it works on a machine with no git config.

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { envWithoutGit, gitBinary, neutralArgs } from "./git-binary.js";

export function initRepository(dir: string, files: Record<string, string>, message: string): void {
  mkdirSync(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
  const git = (...args: string[]) =>
    execFileSync(gitBinary(), [...neutralArgs(), ...args], {
      cwd: dir,
      env: envWithoutGit(),
      stdio: ["ignore", "pipe", "pipe"],
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git(
    "-c",
    "user.name=Docket demo",
    "-c",
    "user.email=demo@example.invalid",
    "-c",
    "commit.gpgsign=false",
    "commit",
    "-q",
    "--no-verify",
    "-m",
    message,
  );
}
