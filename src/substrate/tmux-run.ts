// How the tmux port runs tmux: an argument array with every `;` escaped, a scrubbed environment, errors as TmuxError.
// Only CLIENT_ENV reaches tmux, so a server Docket starts holds none of the caller's secrets for later windows.

import { execFileSync } from "node:child_process";

/** The only variables the tmux client gets: a server it starts keeps them as its global environment. */
const CLIENT_ENV = [
  ...["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE"],
  ...["TERM", "TMUX", "TMUX_TMPDIR", "TZ"],
];

export class TmuxError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
    this.name = "TmuxError";
  }
}

/** Separates two tmux commands in one invocation: the only argument that reaches tmux as a bare `;`. */
export const SEPARATOR_TOKEN = "\u0000docket-tmux-separator\u0000";

/**
 * tmux reads an argument ending in `;` as the end of a command and drops the `;`. Every argument we pass
 * (argv words, env values, literal text) keeps its `;` by escaping it; only our own separators stay bare.
 */
export function escapeArgument(arg: string): string {
  if (arg === SEPARATOR_TOKEN) return ";";
  return arg.endsWith(";") ? `${arg.slice(0, -1)}\\;` : arg;
}

/** Runs tmux's argv elsewhere (a host over ssh): stdout on success, a TmuxError carrying tmux's stderr otherwise. */
export type TmuxExec = (args: string[], input?: string) => string;

/** Runs one tmux invocation on the port's server: stdout, or a TmuxError. */
export type TmuxRun = (args: string[], input?: string) => string;

export function createTmuxRun(serverArgs: readonly string[], env: NodeJS.ProcessEnv, exec?: TmuxExec): TmuxRun {
  const clientEnv: NodeJS.ProcessEnv = {};
  for (const name of CLIENT_ENV) if (env[name] !== undefined) clientEnv[name] = env[name];
  return (args, input) => {
    if (exec) return exec([...serverArgs, ...args.map(escapeArgument)], input);
    try {
      return execFileSync("tmux", [...serverArgs, ...args.map(escapeArgument)], {
        encoding: "utf8",
        env: clientEnv,
        input,
        stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
    } catch (error) {
      const e = error as { stderr?: string; message: string; code?: string };
      if (e.code === "ENOENT") throw new TmuxError("tmux is not installed (no `tmux` on PATH)", "");
      const stderr = String(e.stderr ?? "").trim();
      throw new TmuxError(stderr || e.message, stderr);
    }
  };
}

const GONE = /can't find|no server running|no such|not found|error connecting|server exited/i;

/** Whether tmux said the server, session, window or pane is not there (as opposed to failing otherwise). */
export const isTmuxGone = (e: unknown): boolean => e instanceof TmuxError && GONE.test(e.stderr || e.message);
