// bubblewrap on a host, asked over ssh: whether it can contain a worker there (the same test run as here), the host's
// own facts a plan needs (its HOME, pi's agent dir), one launch's directories made there, and what its planned paths are.

import { bwrapArgs, type Mount, type PathType, type SandboxNetwork } from "../../domain/workers/sandbox-plan.js";
import { PROBE_ARGV, probeFailure, type SandboxSupport } from "../sandbox/bwrap.js";
import { runRemoteOk, type SshTarget } from "./connection.js";
import type { RemoteHost } from "./host.js";

/** What a host says about containing workers there, with the facts of its account a plan needs. */
export interface HostSandbox {
  support: SandboxSupport;
  /** The host user's HOME (its secrets are hidden under it). */
  home: string;
  /** pi's agent dir on the host when its environment names one (PI_CODING_AGENT_DIR); else pi's default under HOME. */
  piAgentDir?: string;
}

// $1: the test run's argv. Prints HOME, PI_CODING_AGENT_DIR, then one verdict line: `ok <bwrap>`, `missing`,
// `not-linux <uname>` or `failed <bwrap> <first stderr line>` (fields separated by tabs).
const PROBE_SCRIPT = [
  'printf "%s\\n%s\\n" "$HOME" "${PI_CODING_AGENT_DIR-}"',
  'os=$(uname -s); [ "$os" = Linux ] || { printf "not-linux\\t%s\\n" "$os"; exit 0; }',
  'b=$(command -v bwrap) || { printf "missing\\n"; exit 0; }',
  'if err=$("$b" "$@" 2>&1 >/dev/null); then printf "ok\\t%s\\n" "$b"; else printf "failed\\t%s\\t%s\\n" "$b" "$(printf "%s" "$err" | head -n 1)"; fi',
].join("\n");

/** Asks the host, in one call: its HOME, pi's agent dir, and whether its bubblewrap passes the test run. */
export function probeHostSandbox(target: SshTarget): HostSandbox {
  const out = runRemoteOk(target, ["sh", "-c", PROBE_SCRIPT, "sh", ...PROBE_ARGV], "asking about bubblewrap")
    .toString("utf8")
    .split("\n");
  const [home = "", piAgentDir = "", verdict = ""] = out;
  const [word, first = "", second = ""] = verdict.split("\t");
  const facts = { home, ...(piAgentDir.startsWith("/") ? { piAgentDir } : {}) };
  if (word === "ok" && first.startsWith("/")) return { support: { ok: true, bwrap: first }, ...facts };
  if (word === "failed") return { support: probeFailure(first, second, "on the host"), ...facts };
  if (word === "not-linux")
    return {
      support: {
        ok: false,
        code: "not-linux",
        reason: `containment is built for Linux only (the host runs ${first})`,
        fix: "run contained workers on a Linux host",
      },
      ...facts,
    };
  return {
    support: {
      ok: false,
      code: "bwrap-missing",
      reason: "bubblewrap (bwrap) is not on the host's PATH",
      fix: "install bubblewrap on the host (apt-get install -y bubblewrap, dnf install bubblewrap)",
    },
    ...facts,
  };
}

/** Where one contained launch's own writable places are on the host. */
export interface ContainedLaunchDirs {
  workspace: string;
  privateGitDir: string;
  scratch: string;
  /** The agent's directories (pi's session dir, and its agent dir, which pi makes on its first run), made 0700. */
  agentDirs: readonly string[];
}

// $1 door dir, $2 1 when contained, then (contained) $3 private git dir, $4 workspace, $5 repo, $6 the ref that pins
// the worker's base there, $7 scratch, $8 the count of agent dirs, those dirs; then the paths to describe.
// The worker's own git dir is made whole beside it and renamed into place, once: a later generation keeps its
// commits. Its HEAD and index come from the base the host's repository pins, never from anything the worker wrote.
const PREPARE_SCRIPT = [
  'umask 077; mkdir -p -- "$1" || exit 1; contained=$2; shift 2',
  'if [ "$contained" = 1 ]; then',
  "  gd=$1; ws=$2; repo=$3; ref=$4; scratch=$5; n=$6; shift 6",
  '  mkdir -p -- "$scratch" || exit 1',
  '  while [ "$n" -gt 0 ]; do mkdir -p -- "$1" || exit 1; shift; n=$((n - 1)); done',
  '  if [ ! -f "$gd/HEAD" ]; then',
  '    base=$(git --git-dir="$repo" rev-parse --verify -q "$ref^{commit}") || exit 1',
  '    t=$gd.making-$$; rm -rf -- "$t"',
  '    mkdir -p -- "$t/objects/info" "$t/refs/heads" "$t/refs/tags" "$t/info" || exit 1',
  '    printf "%s\\n" "$repo/objects" > "$t/objects/info/alternates" && printf "%s\\n" "$base" > "$t/HEAD" || exit 1',
  '    git config -f "$t/config" core.repositoryformatversion 0 && git config -f "$t/config" core.bare false && git config -f "$t/config" core.worktree "$ws" || exit 1',
  '    GIT_DIR=$t git read-tree "$base" || exit 1',
  '    rm -rf -- "$gd" && mv -- "$t" "$gd" || exit 1',
  "  fi",
  "fi",
  // Most planned paths (the secrets list) are absent: only a present one costs a realpath process.
  'for p in "$@"; do',
  '  if [ -e "$p" ] || [ -L "$p" ]; then r=$(realpath -- "$p" 2>/dev/null) || r=$p; else r=$p; fi',
  '  if [ -d "$r" ] && [ ! -L "$r" ]; then t=dir; elif [ -e "$r" ] || [ -L "$r" ]; then t=file; else t=missing; fi',
  '  printf "%s\\0%s\\0%s\\0" "$p" "$t" "$r"',
  "done",
].join("\n");

/** A planned path as the host's kernel sees it (realpath) and what is there. */
export type HostPathFacts = Map<string, { real: string; type: PathType }>;

/**
 * One launch's directories on the host, in one call: the worker's own door directory always; when contained, its
 * scratch, agent state and own git dir too. Answers what each of `paths` is there (for the bubblewrap argv).
 */
export function prepareHostLaunch(
  host: RemoteHost,
  worker: string,
  contained: ContainedLaunchDirs | undefined,
  paths: readonly string[],
): HostPathFacts {
  const args = contained
    ? [
        "1",
        contained.privateGitDir,
        contained.workspace,
        host.repo,
        `refs/docket/${worker}`,
        contained.scratch,
        String(contained.agentDirs.length),
        ...contained.agentDirs,
      ]
    : ["0"];
  const out = runRemoteOk(
    host.target,
    ["sh", "-c", PREPARE_SCRIPT, "sh", host.doorDir(worker), ...args, ...paths],
    `preparing ${worker}'s launch`,
  ).toString("utf8");
  const fields = out.split("\0");
  const facts: HostPathFacts = new Map();
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const type = fields[i + 1];
    if (type === "dir" || type === "file" || type === "missing") facts.set(fields[i]!, { real: fields[i + 2]!, type });
  }
  return facts;
}

/** The argv prefix (`bwrap … --`) that contains one launch on the host, from the host's own facts of each path. */
export function hostSandboxArgv(
  bwrap: string,
  mounts: readonly Mount[],
  network: SandboxNetwork,
  facts: HostPathFacts,
): string[] {
  const resolved = mounts.map((m) => ({ ...m, path: facts.get(m.path)?.real ?? m.path }));
  const typeOf = new Map([...facts.values()].map((f) => [f.real, f.type] as const));
  return [bwrap, ...bwrapArgs(resolved, (p) => typeOf.get(p) ?? "missing", { network }), "--"];
}
