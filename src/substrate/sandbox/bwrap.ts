// bubblewrap on this machine: found by absolute path on the human's PATH, probed once by running it, and the argv that
// wraps one worker's command. Containment is Linux-only; every reason it cannot work here is named for the doctor.

import { execFileSync } from "node:child_process";
import { accessSync, constants, lstatSync, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import {
  baseSystem,
  bwrapArgs,
  type BwrapOptions,
  type Mount,
  type PathType,
  type SandboxNetwork,
} from "../../domain/workers/sandbox-plan.js";

export type SandboxSupport =
  | { ok: true; bwrap: string }
  | {
      ok: false;
      code: "not-linux" | "bwrap-missing" | "userns-disabled" | "bwrap-failed";
      reason: string;
      fix: string;
    };

/** The first executable `bwrap` on `pathValue`, as an absolute path (the worker's PATH is never consulted). */
export function findBwrap(pathValue: string | undefined): string | undefined {
  for (const dir of (pathValue ?? "").split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here: the next PATH entry
    }
  }
  return undefined;
}

const probed = new Map<string, SandboxSupport>();

/** Whether a worker can be contained here: bubblewrap present and able to make its namespaces (asked once per PATH). */
export function detectSandbox(
  pathValue: string | undefined,
  platform: NodeJS.Platform = process.platform,
): SandboxSupport {
  if (platform !== "linux") {
    return {
      ok: false,
      code: "not-linux",
      reason: `containment is built for Linux only (this is ${platform})`,
      fix: "run workers on Linux to contain them; on macOS see docs/containment.md (Seatbelt design, not built)",
    };
  }
  const bwrap = findBwrap(pathValue);
  if (!bwrap)
    return {
      ok: false,
      code: "bwrap-missing",
      reason: "bubblewrap (bwrap) is not on PATH",
      fix: "install bubblewrap (apt-get install -y bubblewrap, dnf install bubblewrap)",
    };
  const known = probed.get(bwrap);
  if (known) return known;
  const result = probe(bwrap);
  probed.set(bwrap, result);
  return result;
}

/** `0.8.0`, for the doctor (a spawn does not ask: one test run is enough). */
export function bwrapVersion(bwrap: string): string {
  try {
    return execFileSync(bwrap, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 })
      .trim()
      .replace(/^bubblewrap\s*/, "");
  } catch {
    return "(version unknown)"; // it ran its test, so it exists; only the version text is missing
  }
}

/** The test run that says whether bubblewrap can make a worker's namespaces (here, or on a host over ssh). */
export const PROBE_ARGV: readonly string[] = ["--unshare-user", "--unshare-pid", ...baseSystem("--ro-bind"), "true"];

function probe(bwrap: string): SandboxSupport {
  try {
    execFileSync(bwrap, PROBE_ARGV, { stdio: ["ignore", "ignore", "pipe"], timeout: 10_000 });
    return { ok: true, bwrap };
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message);
    return probeFailure(bwrap, stderr);
  }
}

/** Why a failed test run failed, from bubblewrap's first line of stderr; `where` names the machine ("here"). */
export function probeFailure(bwrap: string, stderr: string, where = "here"): Extract<SandboxSupport, { ok: false }> {
  const line = stderr.trim().split("\n")[0] ?? "";
  if (/user namespace|uid map|setting up uid|No permissions to creat|Operation not permitted/i.test(line)) {
    return {
      ok: false,
      code: "userns-disabled",
      reason: `bubblewrap cannot create namespaces ${where}: ${line}`,
      fix: "enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0), or run inside a VM/container that allows them",
    };
  }
  return {
    ok: false,
    code: "bwrap-failed",
    reason: `bubblewrap ${bwrap} failed its test run: ${line}`,
    fix: "run `bwrap --ro-bind / / true` to see why",
  };
}

/** What is at a path, not following a final symlink (a link is covered like a file). */
function pathType(path: string): PathType {
  try {
    return lstatSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return "missing";
  }
}

/** Paths as the kernel sees them (a planned path through a symlink would bind the link's target elsewhere). */
function resolved(mounts: readonly Mount[]): Mount[] {
  return mounts.map((m) => {
    try {
      return { ...m, path: realpathSync(m.path) };
    } catch {
      return m; // absent: left out by bwrapArgs
    }
  });
}

/** The argv prefix that runs a command contained: `bwrap …mounts… --`. */
export function sandboxArgv(
  bwrap: string,
  mounts: readonly Mount[],
  network: SandboxNetwork,
  system: BwrapOptions["system"] = "ro",
): string[] {
  return [bwrap, ...bwrapArgs(resolved(mounts), pathType, { network, system }), "--"];
}
