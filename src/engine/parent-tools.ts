// The pi session's own tools, kept from acting as the human: its bash runs in a bubblewrap box without
// Docket's home, and its file tools are refused paths there. Which box, and why there is none, is decided here.

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { PARENT_TOOLS_NOTE, planParentToolMounts, SHELL_STARTUP_FILES, isWithin } from "../domain/parent-tools.js";
import { doorDirOf } from "../files/door-files.js";
import { resolveHomeDir } from "../files/home.js";
import { pathExists } from "../files/probe.js";
import { realPathOf } from "../files/real-path.js";
import { runBoxedShell, type BoxedShellOptions } from "../substrate/sandbox/boxed-shell.js";
import { detectSandbox, sandboxArgv } from "../substrate/sandbox/bwrap.js";
import { docketBinPath } from "./workers/launch.js";
import { userConfig } from "./user-config.js";

export type ParentToolBox =
  | { contained: true; bwrap: string }
  /** `chosen`: the human turned the sandbox off; `refuse`: the human required it, so the bash tool runs nothing. */
  | { contained: false; why: string; chosen: boolean; refuse: boolean };

/** Decided once when the session starts, with the human's PATH and config. */
export function decideParentToolBox(env: NodeJS.ProcessEnv): ParentToolBox {
  const { mode } = userConfig(env).config.sandbox;
  if (mode === "off")
    return {
      contained: false,
      why: env.DOCKET_SANDBOX === "off" ? "DOCKET_SANDBOX=off" : "sandbox is off in your config",
      chosen: true,
      refuse: false,
    };
  const support = detectSandbox(env.PATH);
  if (support.ok) return { contained: true, bwrap: support.bwrap };
  return { contained: false, why: `${support.reason} (${support.fix})`, chosen: false, refuse: mode === "required" };
}

/**
 * The session-start notice where the model's bash is not boxed: information when the human turned the sandbox off, a
 * warning when this machine cannot box it, an error when it was required and so runs nothing.
 */
export function parentToolBoxNotice(box: Extract<ParentToolBox, { contained: false }>): {
  text: string;
  level: "info" | "warning" | "error";
} {
  if (box.chosen)
    return {
      text: `docket: this session's bash tool runs uncontained (${box.why}); a process-tree check refuses it your verbs`,
      level: "info",
    };
  if (box.refuse)
    return {
      text: `docket: this session's bash tool is refused: sandbox is "required" but it cannot be contained here: ${box.why}`,
      level: "error",
    };
  return {
    text: `docket: this session's bash tool runs uncontained (${box.why}); only a process-tree check keeps what it starts from judging as you, and a process that detaches from pi escapes it`,
    level: "warning",
  };
}

/** Docket's home and the door's directory as the kernel names them: what no tool of the session may reach. */
function protectedRoots(env: NodeJS.ProcessEnv): string[] {
  const home = resolveHomeDir(env);
  return [...new Set([realPathOf("/", home), realPathOf("/", doorDirOf(home))])];
}

/** Sockets whose server runs a command as the human, outside any box: tmux servers, an ssh agent. */
function escapeSockets(env: NodeJS.ProcessEnv): string[] {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const out = [join(env.TMUX_TMPDIR ? resolve(env.TMUX_TMPDIR) : "/tmp", `tmux-${uid}`)];
  const socket = env.DOCKET_TMUX_SOCKET;
  if (socket?.includes("/")) out.push(resolve(socket));
  const attached = env.TMUX?.split(",")[0];
  if (attached) out.push(resolve(attached));
  if (env.SSH_AUTH_SOCK) out.push(resolve(env.SSH_AUTH_SOCK));
  if (env.XDG_RUNTIME_DIR) out.push(resolve(env.XDG_RUNTIME_DIR));
  return out;
}

/** Code and settings the human's next session runs unboxed; left writable when it holds the checkout itself. */
function runLaterPaths(env: NodeJS.ProcessEnv, checkout: string): string[] {
  const agentDir = env.PI_CODING_AGENT_DIR ? resolve(env.PI_CODING_AGENT_DIR) : join(homedir(), ".pi", "agent");
  const piEntry = process.argv[1] ? realPathOf("/", process.argv[1]) : undefined;
  const dist = piEntry?.includes("/pi-coding-agent/") ? piEntry.lastIndexOf("/dist/") : -1;
  const piInstall = dist > 0 ? piEntry?.slice(0, dist) : undefined;
  const home = env.HOME ? resolve(env.HOME) : homedir();
  const paths = [
    resolve(docketBinPath(), "..", ".."),
    agentDir,
    ...(piInstall ? [piInstall] : []),
    ...SHELL_STARTUP_FILES.map((f) => join(home, f)),
  ].map((p) => realPathOf("/", p));
  return paths.filter((p) => !isWithin(checkout, p));
}

/** The argv prefix (`bwrap … --`) of one bash call, planned afresh: a door started since is hidden too. */
export function parentToolArgv(env: NodeJS.ProcessEnv, bwrap: string, cwd: string): string[] {
  const given = resolveHomeDir(env);
  const home = realPathOf("/", given);
  const mounts = planParentToolMounts({
    home,
    doorDir: realPathOf("/", doorDirOf(given)), // named from the home as the door names it, links resolved after
    escapes: escapeSockets(env),
    runLater: runLaterPaths(env, realPathOf("/", cwd)),
  });
  // The note is bound inside the hidden home; with no home there is nothing to hide it in, and bubblewrap would make it.
  const planned = pathExists(home) ? mounts : mounts.filter((m) => m.path !== join(home, PARENT_TOOLS_NOTE));
  return sandboxArgv(bwrap, planned, "open", "rw");
}

/** Runs one command of the model's bash tool in the box. */
export function runParentBash(
  argv: readonly string[],
  shell: string,
  command: string,
  cwd: string,
  options: BoxedShellOptions,
): Promise<{ exitCode: number | null }> {
  return runBoxedShell(argv, shell, command, cwd, options);
}

export type FileTool = "read" | "write" | "edit" | "grep" | "find" | "ls";

/**
 * Why the model's file tool may not touch `rawPath` (as pi resolves it: `@` dropped, `~` the home, from `cwd`), or
 * undefined. Nothing under Docket's home, by any link; a search is also refused a folder that holds the home.
 */
export function parentFileRefusal(
  env: NodeJS.ProcessEnv,
  cwd: string,
  tool: FileTool,
  rawPath: string | undefined,
): string | undefined {
  const given = (rawPath ?? ".").replace(/^@/, "");
  const expanded = given === "~" ? homedir() : given.startsWith("~/") ? join(homedir(), given.slice(2)) : given;
  const target = realPathOf(cwd, expanded);
  for (const root of protectedRoots(env)) {
    if (isWithin(target, root))
      return `${tool} ${given}: that is inside Docket's home (${root}), which only the human's own docket commands touch (its ledger, config, kinds, review page's secret and workers' launch files); nothing was done. Ask the human to run the docket command instead.`;
    if ((tool === "grep" || tool === "find") && isWithin(root, target))
      return `${tool} ${given}: that folder holds Docket's home (${root}), which the session's tools may not read; nothing was searched. Search a folder outside it.`;
  }
  return undefined;
}
