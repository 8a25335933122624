// Where an agent CLI lives on this machine: the pinned copy in Docket's own node_modules first, then PATH.
// What `docket kinds`, `spawn --help` and `--dry-run` show, and what a launch runs (argv only, never a shell string).

import { accessSync, constants, statSync } from "node:fs";
import { arch, platform } from "node:os";
import { join, delimiter } from "node:path";
import { packageDir } from "../package-dir.js";

export interface LocatedAgent {
  /** The argv prefix that runs the CLI. */
  command: string[];
  source: "node_modules" | "PATH";
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` on a PATH string. */
export function onPath(name: string, pathValue: string | undefined): string | undefined {
  for (const dir of (pathValue ?? "").split(delimiter)) {
    if (dir !== "" && isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** Claude Code: its native binary from the platform package (works whether or not the wrapper's postinstall ran). */
export function locateClaude(pathValue: string | undefined): LocatedAgent | undefined {
  const libc = platform() === "linux" && !isGlibc() ? "-musl" : "";
  const native = packageDir(`@anthropic-ai/claude-code-${platform()}-${arch()}${libc}`);
  if (native && isExecutable(join(native, "claude")))
    return { command: [join(native, "claude")], source: "node_modules" };
  const found = onPath("claude", pathValue);
  return found ? { command: [found], source: "PATH" } : undefined;
}

/** Codex: its own Node launcher (it puts the bundled helpers on PATH), run with this Node. */
export function locateCodex(pathValue: string | undefined): LocatedAgent | undefined {
  const wrapper = packageDir("@openai/codex");
  if (wrapper && isExecutable(join(wrapper, "bin", "codex.js")))
    return { command: [process.execPath, join(wrapper, "bin", "codex.js")], source: "node_modules" };
  const found = onPath("codex", pathValue);
  return found ? { command: [found], source: "PATH" } : undefined;
}

function isGlibc(): boolean {
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return typeof report.header?.glibcVersionRuntime === "string";
}
