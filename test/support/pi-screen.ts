// A real interactive pi (the parent, with Docket and the scripted model) in a private tmux server, driven the way a
// human drives it: typed text and named keys in (send-keys), the screen out (capture-pane), waits with deadlines.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, PI_HERMETIC } from "./docket-cli.js";
import { parentPiArgs } from "./pi-rpc.js";
import { tempDir } from "./temp.js";
import { tmuxServer, type TmuxServer } from "./tmux.js";
import { waitFor } from "./wait.js";

type T = { after(fn: () => void | Promise<void>): void };

export interface PiScreen {
  tmux: TmuxServer;
  env: NodeJS.ProcessEnv;
  /** The visible screen as text (no colours), lines joined by "\n". */
  screen(): string;
  /** The visible screen with colours (SGR sequences), for checking a line's level. */
  screenWithColours(): string;
  /** Types text literally into pi (no Enter). */
  type(text: string): void;
  /** Presses tmux-named keys (`Enter`, `Escape`, `F8`, `]`, `j`…), one after another. */
  press(...keys: string[]): void;
  /** Types a line and presses Enter (a `/docket …` command). */
  submit(text: string): void;
  /** Resolves with the screen once `pred` holds for it; fails with `what` and the last screen after the deadline. */
  until(what: string, pred: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Starts pi (again, after `exit`) in the same server, home and project; resolves once its editor is up. */
  start(): Promise<void>;
  /** Ctrl+D: pi exits; resolves once its pane is gone. */
  exit(): Promise<void>;
}

/** Starts the interactive pi parent as tmux session `parent` (its only pane): `env` is passed into the pane, since tmux
 * gives a new pane its server's environment, not the caller's. */
export function startParentPane(
  tmux: TmuxServer,
  o: { conf: string; cwd: string; env: NodeJS.ProcessEnv; columns: number; rows: number },
): void {
  const vars = Object.entries(o.env).flatMap(([k, v]) => (v === undefined ? [] : ["-e", `${k}=${v}`]));
  tmux.tmux(
    "-f",
    o.conf,
    "new-session",
    "-d",
    "-s",
    "parent",
    "-x",
    String(o.columns),
    "-y",
    String(o.rows),
    "-c",
    o.cwd,
    ...vars,
    process.execPath,
    ...parentPiArgs(),
  );
}

/** `vars` must carry DOCKET_HOME; agent dir, HOME, TMPDIR and the scripted model's script are private to this test. */
export function piScreen(t: T, options: { cwd: string; vars: Record<string, string>; script?: unknown[] }): PiScreen {
  const root = tempDir(t, "docket-pi-screen-");
  const dirs = { agent: join(root, "agent"), tmp: join(root, "tmp"), home: join(root, "home") };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  writeFileSync(join(root, "script.json"), JSON.stringify(options.script ?? [{ text: "ok" }]));
  const tmux = tmuxServer(t);
  const env = cliEnv({
    PI_CODING_AGENT_DIR: dirs.agent,
    TMPDIR: dirs.tmp,
    HOME: dirs.home,
    ...PI_HERMETIC,
    DOCKET_TMUX_SOCKET: tmux.socket,
    DOCKET_SCRIPTED_MODEL: join(root, "script.json"),
    DOCKET_SCRIPTED_MODEL_LOG: join(root, "model.log"),
    ...options.vars,
  });
  const conf = join(root, "tmux.conf");
  writeFileSync(conf, "set -g extended-keys on\nset -g history-limit 5000\nset -g escape-time 0\n");
  const capture = (...flags: string[]) => tmux.tmux("capture-pane", "-p", ...flags, "-t", "parent");
  let last = "";
  const s: PiScreen = {
    tmux,
    env,
    screen: () => (last = capture()),
    screenWithColours: () => capture("-e"),
    type: (text) => void tmux.tmux("send-keys", "-t", "parent", "-l", text),
    press: (...keys) => {
      for (const k of keys) tmux.tmux("send-keys", "-t", "parent", k);
    },
    submit: (text) => {
      s.type(text);
      s.press("Enter");
    },
    until: async (what, pred, timeoutMs = 30_000) => {
      try {
        return await waitFor(
          what,
          () => {
            const screen = s.screen();
            return pred(screen) ? screen : undefined;
          },
          timeoutMs,
          150,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}\n--- last screen ---\n${last}`);
      }
    },
    start: async () => {
      startParentPane(tmux, { conf, cwd: options.cwd, env, columns: 160, rows: 48 });
      await s.until("pi's editor and footer", (screen) => screen.includes("scripted"), 90_000);
    },
    exit: async () => {
      s.press("C-d");
      await waitFor(
        "pi to exit",
        () => {
          try {
            return tmux.tmux("list-panes", "-t", "parent", "-F", "#{pane_dead}").trim() === "1" || undefined;
          } catch {
            return true; // the session is gone with its only pane: pi exited
          }
        },
        30_000,
      );
    },
  };
  return s;
}
