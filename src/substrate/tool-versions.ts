// The versions of the outside tools Docket drives (tmux, git), for `docket doctor`: asked once, never assumed.
// A tool that is missing or does not answer is `undefined`; the caller says what to install.

import { execFileSync } from "node:child_process";
import { gitBinary } from "./git/git-binary.js";

const VERSION_ARGS = { tmux: ["-V"], git: ["--version"] } as const;

export type OutsideTool = keyof typeof VERSION_ARGS;

/** `3.3a` for tmux, `2.39.5` for git; undefined when the tool cannot be run. */
export function toolVersion(tool: OutsideTool): string | undefined {
  let out: string;
  try {
    out = execFileSync(tool === "git" ? gitBinary() : tool, [...VERSION_ARGS[tool]], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 10_000,
    });
  } catch {
    return undefined; // not installed, or it failed to start: the doctor reports it as missing
  }
  const m = /(\d+\.\d+[0-9a-z.]*)/.exec(out);
  return m ? m[1] : out.trim() || undefined;
}

/** Compares dotted versions numerically (`3.3a` reads as 3.3); true when `version` is at least `min`. */
export function isAtLeast(version: string, min: string): boolean {
  const parts = (v: string) => v.split(".").map((p) => Number.parseInt(p, 10) || 0);
  const a = parts(version);
  const b = parts(min);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}
