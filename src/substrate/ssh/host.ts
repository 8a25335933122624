// One remote host as Docket uses it: its directory (a bare clone, Docket's tmux socket, one directory per worker, the
// forwarded door sockets), git and tmux run there through ssh argv. The host is the worker's side: nothing it returns
// is trusted — a change set it sends back is checked again here, by git, against the base this machine made.

import { join } from "node:path/posix";
import { refusal } from "../../domain/errors.js";
import { changeSetTooLarge } from "../../domain/door-limits.js";
import { NEUTRAL_CONFIG } from "../git/git-binary.js";
import { packHistory } from "../git/blob.js";
import { TmuxError, createTmux, type Tmux } from "../tmux.js";
import { runRemote, runRemoteOk, sshOptions, type SshTarget } from "./connection.js";
import { remoteCommandLine } from "./quote.js";

export interface RemoteHost {
  target: SshTarget;
  /** Docket's directory on the host, absolute. */
  dir: string;
  tmuxSocket: string;
  repo: string;
  workerDir(worker: string): string;
  workspace(worker: string): string;
  envFile(worker: string): string;
  taskFile(worker: string): string;
  /** The worker's own directory of door sockets (a contained worker sees this one, no sibling's). */
  doorDir(worker: string): string;
  doorSocket(worker: string, generation: number): string;
  /** Where a contained worker with network `allow` reaches the door's egress proxy (forwarded like its door). */
  egressSocket(worker: string, generation: number): string;
}

const neutral = NEUTRAL_CONFIG.flatMap((kv) => ["-c", kv]);

/** The remote user's home (ssh starts commands there), for a `dir` given relative to it. */
export function resolveRemoteDir(target: SshTarget, dir: string): string {
  if (dir.startsWith("/")) return dir.replace(/\/+$/, "") || "/";
  const home = runRemoteOk(target, ["sh", "-c", 'printf %s "$HOME"'], "reading the home directory").toString("utf8");
  if (!home.startsWith("/"))
    throw refusal(
      "host-home-unknown",
      `host ${target.name} did not say where its home directory is`,
      "give the host an absolute --dir",
    );
  return join(home, dir);
}

export function remoteHost(target: SshTarget, dir: string): RemoteHost {
  const workerDir = (w: string) => join(dir, "workers", w);
  const doorDir = (w: string) => join(dir, "door", w);
  const host: RemoteHost = {
    target,
    dir,
    tmuxSocket: join(dir, "tmux.sock"),
    repo: join(dir, "repo.git"),
    workerDir,
    workspace: (w) => join(workerDir(w), "workspace"),
    envFile: (w) => join(workerDir(w), "launch.env"),
    taskFile: (w) => join(workerDir(w), "task.md"),
    doorDir,
    doorSocket: (w, g) => join(doorDir(w), `${g}.sock`),
    egressSocket: (w, g) => join(doorDir(w), `${g}.egress.sock`),
  };
  if (Buffer.byteLength(host.egressSocket("w99999", 99999)) > 107) {
    throw refusal(
      "host-dir-too-long",
      `host ${target.name}'s directory ${dir} is too long for the door sockets Docket forwards there (107 bytes at most)`,
      "give the host a shorter --dir",
    );
  }
  return host;
}

/** Makes Docket's directory on the host (0700) with its bare repository; idempotent. */
export function prepareHost(host: RemoteHost): void {
  const script =
    'umask 077 && mkdir -p -- "$1/workers" "$1/door" && chmod 700 -- "$1" "$1/door" && { [ -d "$1/repo.git" ] || git init -q --bare -- "$1/repo.git"; }';
  runRemoteOk(host.target, ["sh", "-c", script, "sh", host.dir], "preparing Docket's directory");
}

/**
 * Makes `base` (a commit of the human's repository) present in the host's bare repository, over the same connection:
 * a pack of its history piped into `git index-pack` there. The host never fetches from anywhere.
 */
export function deliverCommit(host: RemoteHost, projectRoot: string, base: string, worker: string): void {
  const has = runRemote(host.target, ["git", ...neutral, "-C", host.repo, "cat-file", "-e", `${base}^{commit}`]);
  if (has.status !== 0) {
    let pack: Buffer;
    try {
      pack = packHistory(projectRoot, base);
    } catch (error) {
      throw refusal("pack-failed", `could not pack ${base} for host ${host.target.name}: ${(error as Error).message}`);
    }
    runRemoteOk(
      host.target,
      ["git", ...neutral, "-C", host.repo, "index-pack", "--stdin"],
      "receiving the base commit",
      { input: pack, timeoutMs: 120_000 },
    );
  }
  runRemoteOk(
    host.target,
    ["git", ...neutral, "-C", host.repo, "update-ref", `refs/docket/${worker}`, base],
    "pinning the base commit",
  );
}

/** The worker's workspace on the host: a detached worktree of the bare repository at its base. */
export function createRemoteWorkspace(host: RemoteHost, worker: string, base: string): void {
  const script = 'umask 077 && mkdir -p -- "$1" && shift && exec "$@"';
  runRemoteOk(
    host.target,
    [
      "sh",
      "-c",
      script,
      "sh",
      host.workerDir(worker),
      "git",
      ...neutral,
      "-C",
      host.repo,
      "worktree",
      "add",
      "-q",
      "--detach",
      host.workspace(worker),
      base,
    ],
    "making the workspace",
  );
}

/** Writes a private file on the host (0600, replaced atomically); the bytes travel on ssh's stdin, never its argv. */
export function writeRemoteFile(host: RemoteHost, path: string, content: string): void {
  const script =
    'umask 077 && mkdir -p -- "$(dirname -- "$1")" && cat > "$1.tmp" && chmod 600 -- "$1.tmp" && mv -f -- "$1.tmp" "$1"';
  runRemoteOk(host.target, ["sh", "-c", script, "sh", path], `writing ${path}`, { input: content });
}

/**
 * What every git call on a worker's tree on the host starts with ($1 the host's repository, then the script's own
 * words): the git dir pinned to the worktree Docket made there, found from the repository's own records (each
 * worktree's `gitdir` file, which git wrote), never from the workspace's `.git`, which the worker can rewrite to name a
 * git dir whose config runs a filter or fsmonitor; and no global or system config. The work tree is the directory
 * the script changes to. A workspace no record names gets no git at all.
 */
const PIN_GIT =
  'repo=$1; shift; top=$(cd -- "$1" && pwd -P) || exit 1; GIT_DIR=; for d in "$repo"/worktrees/*; do [ -f "$d/gitdir" ] && [ "$(cat -- "$d/gitdir")" = "$top/.git" ] && GIT_DIR=$d; done; [ -n "$GIT_DIR" ] || { echo "$top is not a workspace Docket made; no git was run there" >&2; exit 1; }; export GIT_DIR; GIT_CONFIG_NOSYSTEM=1; GIT_CONFIG_GLOBAL=/dev/null; export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL; ';

/** `sh -c <pinned script> sh <repo> <words…>` for a script that starts by changing to the workspace ($1). */
const pinned = (host: RemoteHost, script: string, words: readonly string[]): string[] => [
  "sh",
  "-c",
  PIN_GIT + script,
  "sh",
  host.repo,
  ...words,
];

const DIFF_FLAGS = [
  "diff",
  "--cached",
  "--binary",
  "--numstat",
  "-z",
  "-p",
  "--no-renames",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

/**
 * The raw `git add -A` + `git diff --cached --binary --numstat -z -p <base>` of a worker's workspace on the host,
 * taken with a private index there (the worker's own staging area is untouched). The caller checks the bytes.
 */
export function remoteChangeBytes(host: RemoteHost, worker: string, base: string, maxBytes?: number): Buffer {
  // $1 workspace, $2 private index, $3 base, then git's neutral `-c` pairs; the diff flags are this file's constants.
  const script = `cd -- "$1" || exit 1; GIT_INDEX_FILE=$2; export GIT_INDEX_FILE; base=$3; shift 3; rm -f -- "$GIT_INDEX_FILE"; git "$@" add -A -- . || exit 1; exec git "$@" ${DIFF_FLAGS.join(" ")} "$base" --`;
  const r = runRemote(
    host.target,
    pinned(host, script, [host.workspace(worker), join(host.workerDir(worker), "capture.index"), base, ...neutral]),
    { timeoutMs: 120_000, maxStdout: maxBytes },
  );
  if (r.overflowed) throw changeSetTooLarge(worker, maxBytes ?? r.stdout.length);
  if (r.status !== 0) {
    throw refusal(
      "change-set-capture-failed",
      `git failed in ${worker}'s workspace on host ${host.target.name}: ${r.stderr.trim().split("\n")[0] || `exit ${r.status}`}`,
      "fix the workspace (or its base) and call docket_done again, or call docket_fail",
    );
  }
  return r.stdout;
}

/** Files of the workspace on the host that differ from `base` (tracked and untracked, non-ignored); a private index. */
export function remoteChangedPaths(host: RemoteHost, worker: string, base: string): string[] {
  const script =
    'cd -- "$1" || exit 1; GIT_INDEX_FILE=$2; export GIT_INDEX_FILE; base=$3; shift 3; rm -f -- "$GIT_INDEX_FILE"; git "$@" add -A -- . || exit 1; exec git "$@" diff --cached --name-only --no-renames --no-ext-diff --no-textconv -z "$base" --';
  const out = runRemoteOk(
    host.target,
    pinned(host, script, [host.workspace(worker), join(host.workerDir(worker), "capture.index"), base, ...neutral]),
    `listing ${worker}'s changes`,
  );
  return out
    .toString("utf8")
    .split("\0")
    .filter((p) => p !== "");
}

/**
 * After a promotion: the workspace on the host is reset to `base` only when its live tree is exactly base + the
 * promoted patch (the patch travels on stdin); later edits are left as they are. True when it was reset.
 */
export function remoteSettle(host: RemoteHost, worker: string, base: string, patch: string): boolean {
  // $1 workspace, $2 worker dir, $3 base, then git's neutral pairs. Exit 3: the live tree is not base + patch.
  const script = [
    'ws=$1; dir=$2; base=$3; shift 3; cd -- "$ws" || exit 1',
    'live=$(rm -f -- "$dir/capture.index" && GIT_INDEX_FILE=$dir/capture.index git "$@" add -A -- . && GIT_INDEX_FILE=$dir/capture.index git "$@" write-tree) || exit 1',
    'frozen=$(export GIT_INDEX_FILE="$dir/frozen.index"; git "$@" read-tree "$base" && git "$@" apply --cached --whitespace=nowarn - && git "$@" write-tree) || exit 3',
    'rm -f -- "$dir/frozen.index"; [ "$live" = "$frozen" ] || exit 3',
    'git "$@" reset -q --hard "$base" && git "$@" clean -fdq',
  ].join("\n");
  const r = runRemote(
    host.target,
    pinned(host, script, [host.workspace(worker), host.workerDir(worker), base, ...neutral]),
    { input: patch },
  );
  if (r.status === 3) return false;
  if (r.status !== 0)
    throw refusal(
      "host-command-failed",
      `settling ${worker}'s workspace failed on host ${host.target.name}: ${r.stderr.trim().split("\n")[0] || `exit ${r.status}`}`,
    );
  return true;
}

/** Discard, on the host: the workspace goes back to `base`, its live changes dropped (the frozen versions are here). */
export function remoteReset(host: RemoteHost, worker: string, base: string): void {
  const script =
    'ws=$1; base=$2; shift 2; cd -- "$ws" || exit 1; git "$@" reset -q --hard "$base" && git "$@" clean -fdq';
  runRemoteOk(
    host.target,
    pinned(host, script, [host.workspace(worker), base, ...neutral]),
    `resetting ${worker}'s workspace`,
  );
}

/** Removes a worker's directory, workspace and door sockets from the host; what is already gone is fine. */
export function removeRemoteWorker(host: RemoteHost, worker: string): void {
  const script =
    'git -C "$1" worktree remove --force -- "$2" 2>/dev/null; git -C "$1" update-ref -d "refs/docket/$4" 2>/dev/null; rm -rf -- "$3" "$5/$4"; git -C "$1" worktree prune; exit 0';
  runRemoteOk(
    host.target,
    [
      "sh",
      "-c",
      script,
      "sh",
      host.repo,
      host.workspace(worker),
      host.workerDir(worker),
      worker,
      join(host.dir, "door"),
    ],
    `removing ${worker}`,
  );
}

/** pi's session directory on the host holds a transcript (`*.jsonl`) a restart continues. */
export function remoteHasTranscript(host: RemoteHost, sessionDir: string): boolean {
  const script = 'for f in "$1"/*.jsonl; do [ -f "$f" ] && exit 0; done; exit 1';
  return runRemote(host.target, ["sh", "-c", script, "sh", sessionDir]).status === 0;
}

/**
 * What the host's tmux is run without: the server keeps the environment of the call that starts it and gives it to
 * every window, so an agent socket or a display the host's login holds (its own, or one a forward made) never
 * reaches a worker there; an attach carries none in either (tmux copies an attaching client's into the session).
 */
export const TMUX_UNSET = ["SSH_AUTH_SOCK", "SSH_AGENT_PID", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY"] as const;

/** `tmux …` as the host runs it: through `env -u` for each of TMUX_UNSET. */
export function hostTmuxArgv(args: readonly string[]): string[] {
  return ["env", ...TMUX_UNSET.flatMap((name) => ["-u", name]), "tmux", ...args];
}

/** Docket's own tmux server on the host (its private socket), driven through ssh: the same port as the local one. */
export function remoteTmux(host: RemoteHost): Tmux {
  return createTmux(
    host.tmuxSocket,
    {},
    {
      exec: (args, input) => {
        const r = runRemote(host.target, hostTmuxArgv(args), input === undefined ? {} : { input });
        if (r.status !== 0)
          throw new TmuxError(
            r.stderr.trim() || `tmux exited ${r.status} on host ${host.target.name}`,
            r.stderr.trim(),
          );
        return r.stdout.toString("utf8");
      },
    },
  );
}

/** The argv a human runs to look at a worker's window on the host: `ssh -t` into tmux there (each word quoted once). */
export function remoteAttachArgv(host: RemoteHost, session: string, windowId: string): string[] {
  const tmux = hostTmuxArgv([
    "-S",
    host.tmuxSocket,
    "attach-session",
    "-t",
    session,
    ";",
    "select-window",
    "-t",
    windowId,
  ]);
  return ["ssh", ...sshOptions(host.target), "-t", "--", host.target.destination, remoteCommandLine(tmux)];
}

export interface ToolCheck {
  tool: string;
  version: string | null;
}

/** Which of the tools a worker needs are on the host's PATH, with the first line of their version. */
export function checkRemoteTools(host: { target: SshTarget }, tools: readonly string[]): ToolCheck[] {
  const script =
    'for t in "$@"; do if command -v "$t" >/dev/null 2>&1; then case $t in tmux) f=-V;; *) f=--version;; esac; v=$("$t" "$f" 2>&1 | head -n 1); printf "%s\\t%s\\n" "$t" "${v:-?}"; else printf "%s\\t\\n" "$t"; fi; done';
  const out = runRemoteOk(host.target, ["sh", "-c", script, "sh", ...tools], "checking tools").toString("utf8");
  const found = new Map(
    out
      .split("\n")
      .filter((l) => l.includes("\t"))
      .map((l) => [l.slice(0, l.indexOf("\t")), l.slice(l.indexOf("\t") + 1)] as const),
  );
  return tools.map((tool) => ({ tool, version: found.get(tool) || null }));
}
