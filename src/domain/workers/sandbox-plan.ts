// A contained worker's view of the machine as a list of mounts, and that list as bubblewrap's argv (never a shell string).
// Pure: the caller resolves paths (realpath, file type); the most specific mount of a path wins
// (docs/decisions/containment.md).

import type { NetworkMode } from "../network-policy.js";

/** `ro`/`rw`: the host path bound at the same place; `hide`: an empty tmpfs (a directory) or /dev/null (a file). */
export type MountKind = "ro" | "rw" | "hide";

export interface Mount {
  kind: MountKind;
  path: string;
  /** Why this mount is there (for `--dry-run`-style listings and tests). */
  why: string;
  /** `ro` only: the host path shown at `path` when it is another one (a note bound into a hidden directory). */
  from?: string;
}

/** `open`: the machine's network namespace; `allow` and `none`: a network namespace of its own (only loopback). */
export type SandboxNetwork = NetworkMode;

/**
 * Where a contained worker reaches Docket: the door's directory of sockets — each generation's socket is its
 * capability, checked with its run token, and a restarted door's new sockets appear there; the door's control files
 * live in another directory — plus its own task files read-only. The rest of the home is not there at all.
 */
export interface DocketReach {
  home: string;
  doorDir: string;
  files: readonly string[];
}

export interface SandboxInput {
  network: SandboxNetwork;
  /** A read-only kind: its workspace (the human's checkout) stays read-only; only scratch and agent state are writable. */
  readOnly: boolean;
  /** The human's checkout: always read-only; absent on a host, where it is not. */
  checkout?: string;
  /** The worker's own workspace (the checkout itself for a shared, read-only worker). */
  workspace: string;
  /** An isolated worktree's git: the repository's common dir (all of it read-only) and the worker's own git dir (writable). */
  git?: { commonDir: string; privateGitDir: string };
  docket: DocketReach;
  /** The door's egress socket (network `allow`): the worker's only way out, through Docket's proxy. */
  egressSocket?: string;
  /** The worker's own TMPDIR (created by the caller). */
  scratch: string;
  /** The agent's private state: its session or config dir (writable) and the agent's installed config (read-only). */
  agentWritable: readonly string[];
  agentReadOnly: readonly string[];
  /** Host paths shown read-only although they sit under /tmp (Docket's install, a scripted worker's steps, `sandbox.readOnlyPaths`). */
  exposeReadOnly: readonly string[];
  /** Home directories whose secrets are hidden (the caller's HOME and the passwd home). */
  homes: readonly string[];
  /** Sockets and their folders to hide beyond the defaults (the tmux server's, SSH_AUTH_SOCK's). */
  hideExtra: readonly string[];
}

/** What the human keeps under a home that no worker may read: keys, cloud and forge logins, histories, browsers, agents. */
export const HOME_SECRETS = [
  ".ssh",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".config/gh",
  ".config/hub",
  ".gnupg",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".docker",
  ".kube",
  ".npmrc",
  ".pypirc",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
  ".password-store",
  ".bash_history",
  ".zsh_history",
  ".history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".lesshst",
  ".local/share/fish",
  ".local/share/keyrings",
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".claude",
  ".claude.json",
  ".codex",
  ".pi",
  ".config/docket",
  ".gemini",
  ".config/opencode",
  // The desktop session: an X11 or ICE cookie lets a process type into the human's windows.
  ".Xauthority",
  ".ICEauthority",
  ".xsession-errors",
  ".dbus",
  ".vnc",
  ".config/pulse",
  ".pulse-cookie",
  ".esd_auth",
  ".local/share/recently-used.xbel",
  ".config/Code/User/globalStorage",
  ".config/1Password",
  ".config/Bitwarden",
  ".config/keepassxc",
] as const;

/** Places on the system where the human's sessions, agents and container daemons listen. */
export const SYSTEM_HIDDEN = [
  "/run/user",
  "/run/dbus",
  "/run/docker.sock",
  "/run/docker",
  "/run/containerd",
  "/run/podman",
  "/run/systemd/private",
  "/run/screen",
  "/run/tmux",
  "/var/run/docker.sock",
] as const;

const join = (a: string, b: string) => (a.endsWith("/") ? `${a}${b}` : `${a}/${b}`);

/** Every mount of one contained launch, in no particular order (`orderMounts` sorts them). */
export function planMounts(input: SandboxInput): Mount[] {
  const out: Mount[] = [];
  const add = (kind: MountKind, path: string, why: string) => out.push({ kind, path, why });
  add("hide", "/tmp", "private /tmp: other users' and sessions' sockets and files are not visible");
  for (const p of SYSTEM_HIDDEN) add("hide", p, "session, agent and container sockets");
  for (const p of input.hideExtra) add("hide", p, "a socket of the human's session");
  for (const p of input.exposeReadOnly)
    add("ro", p, "shown read-only (Docket's install, scripted steps or sandbox.readOnlyPaths)");
  for (const home of input.homes) for (const s of HOME_SECRETS) add("hide", join(home, s), "the human's secrets");
  const reach = input.docket;
  add("hide", reach.home, "the Docket home: not visible to a worker");
  add("ro", reach.doorDir, "the door's sockets: a worker's calls reach Docket only there");
  for (const f of reach.files) add("ro", f, "the worker's own task files");
  if (input.egressSocket !== undefined && input.network === "allow")
    add("ro", input.egressSocket, "the door's egress proxy: the worker's only way to another host");
  if (input.checkout !== undefined) add("ro", input.checkout, "the human's checkout, read-only");
  if (input.git) add("ro", input.git.commonDir, "the repository's git data, read-only");
  if (!input.readOnly) {
    add("rw", input.workspace, "the worker's workspace");
    if (input.git)
      add("rw", input.git.privateGitDir, "the worker's own git dir: its HEAD, index, refs and new objects");
  } else if (input.workspace !== input.checkout) add("ro", input.workspace, "a read-only kind's workspace");
  add("rw", input.scratch, "the worker's own TMPDIR");
  for (const p of input.agentReadOnly) add("ro", p, "the agent's installed config (model credentials), read-only");
  for (const p of input.agentWritable) add("rw", p, "the agent's private session/config directory");
  return out;
}

const depth = (p: string) => p.split("/").filter(Boolean).length;

/**
 * Parents before children, so the most specific mount of a path decides what is there; for the same path the
 * last one planned wins. bubblewrap applies mounts in argv order and a later mount over a parent would hide its children.
 */
export function orderMounts(mounts: readonly Mount[]): Mount[] {
  const last = new Map<string, { mount: Mount; index: number }>();
  mounts.forEach((mount, index) => last.set(mount.path, { mount, index }));
  return [...last.values()]
    .sort((a, b) => depth(a.mount.path) - depth(b.mount.path) || a.index - b.index)
    .map((e) => e.mount);
}

export type PathType = "dir" | "file" | "missing";

export interface BwrapOptions {
  network: SandboxNetwork;
  /** The system beneath the mounts: read-only (a worker), or as the human's own shell has it (the pi session's tools). */
  system?: "ro" | "rw";
}

/** Dies with its parent, no capabilities, the machine's system bound at / (read-only or not), a fresh /dev and /proc. */
export const baseSystem = (bind: "--bind" | "--ro-bind"): string[] => [
  "--die-with-parent",
  "--cap-drop",
  "ALL",
  bind,
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
];

/**
 * bubblewrap's arguments (without the program): its own user, PID, IPC and UTS namespaces, no capabilities, the
 * system read-only with a fresh /dev and /proc, then the ordered mounts. A mount of a path that does not exist is
 * left out; a hidden file is covered with /dev/null, a hidden directory with an empty read-only tmpfs.
 */
export function bwrapArgs(
  mounts: readonly Mount[],
  typeOf: (path: string) => PathType,
  options: BwrapOptions,
): string[] {
  const args = [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    // Its own network namespace (only loopback) unless the human chose the machine's network (`open`): no abstract
    // sockets, no loopback services and no /proc/net of the machine.
    ...(options.network === "open" ? [] : ["--unshare-net"]),
    ...baseSystem(options.system === "rw" ? "--bind" : "--ro-bind"),
  ];
  const emptied: string[] = [];
  for (const m of orderMounts(mounts)) {
    const type = m.path === "/tmp" ? "dir" : typeOf(m.from ?? m.path);
    if (type === "missing") continue;
    if (m.kind === "hide") args.push(...(type === "dir" ? ["--tmpfs", m.path] : ["--ro-bind", "/dev/null", m.path]));
    else args.push(m.kind === "rw" ? "--bind" : "--ro-bind", m.from ?? m.path, m.path);
    if (m.kind === "hide" && type === "dir" && m.path !== "/tmp") emptied.push(m.path);
  }
  // A hidden directory is an empty tmpfs: read-only once the mounts inside it exist, so nothing can be planted there
  // (a file made at a hidden path, the ledger's say, would read as if it were the real one). /tmp stays the worker's.
  for (const path of emptied) args.push("--remount-ro", path);
  return args;
}
