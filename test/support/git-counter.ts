// Counts the git processes a piece of code starts: a PATH entry whose `git` logs its subcommand and runs the real git.

import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp.js";

/** Runs `fn` with the counting git first on PATH; returns its result and the git subcommands run, in order. */
export function countingGit<T>(t: { after(fn: () => void): void }, fn: () => T): { result: T; calls: string[] } {
  const dir = tempDir(t, "docket-git-counter-");
  const bin = join(dir, "bin");
  mkdirSync(bin);
  const log = join(dir, "calls.log");
  writeFileSync(log, "");
  const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  // Logs the subcommand, past any `-c name=value` pairs before it.
  const sub = `sub() { while [ "$1" = "-c" ]; do shift 2; done; printf '%s\\n' "$1"; }`;
  writeFileSync(join(bin, "git"), `#!/bin/sh\n${sub}\nsub "$@" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(bin, "git"), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path ?? ""}`;
  try {
    const result = fn();
    return {
      result,
      calls: readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => l !== ""),
    };
  } finally {
    process.env.PATH = path;
  }
}
