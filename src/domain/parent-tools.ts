// What the pi session's own tools (the parent model's bash and what it starts) see: the human's system as their shell
// has it, without Docket's home and without the sockets that run a command outside the box as the human
// (docs/decisions/authority.md).

import { SYSTEM_HIDDEN, type Mount } from "./workers/sandbox-plan.js";

export interface ParentToolInput {
  /** Docket's home: the ledger, config, user kinds, the review page's secret, the workers' launch files. */
  home: string;
  /** The door's directory (its control socket), which sits outside the home when the home's path is long. */
  doorDir: string;
  /** Sockets and their folders that run a command as the human outside the box: tmux servers, session buses, agents. */
  escapes: readonly string[];
  /** Code and settings the human's next session runs unboxed: Docket's and pi's installs, pi's agent dir, shell rc files. */
  runLater: readonly string[];
}

/** The human's shell startup files under a home: a line planted there would run in the human's next terminal. */
export const SHELL_STARTUP_FILES = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".config/fish",
] as const;

/** A file bound into the hidden home: its presence tells a CLI it runs in the pi session's tool box, not for the human. */
export const PARENT_TOOLS_NOTE = ".docket-parent-tools";

const join = (a: string, b: string) => (a.endsWith("/") ? `${a}${b}` : `${a}/${b}`);

/** Every mount of the parent tools' box; the system itself is bound writable beneath them (`system: "rw"`). */
export function planParentToolMounts(input: ParentToolInput): Mount[] {
  const out: Mount[] = [];
  const add = (mount: Mount) => out.push(mount);
  for (const path of input.runLater)
    add({ kind: "ro", path, why: "runs unboxed in the human's next session: read-only to the session's tools" });
  for (const path of SYSTEM_HIDDEN) add({ kind: "hide", path, why: "session, agent and container sockets" });
  for (const path of input.escapes) add({ kind: "hide", path, why: "a socket that runs commands as the human" });
  add({ kind: "hide", path: input.doorDir, why: "the door's control socket and sockets" });
  add({ kind: "hide", path: input.home, why: "Docket's home: the session's tools neither judge nor read its secrets" });
  add({
    kind: "ro",
    path: join(input.home, PARENT_TOOLS_NOTE),
    from: "/dev/null",
    why: "tells a docket CLI started here that it runs for the parent agent",
  });
  return out;
}

/** Whether `path` is `root` or lies beneath it (both absolute and normalised, links resolved by the caller). */
export function isWithin(path: string, root: string): boolean {
  const base = root.endsWith("/") ? root : `${root}/`;
  return path === root || path.startsWith(base);
}
