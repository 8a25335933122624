// A hermetic environment for real pi workers driven by Docket's own scripted model (dist/src/surfaces/pi/scripted-model.js):
// temp DOCKET_HOME, pi agent dir, TMPDIR and HOME, a private tmux server stopped (and waited for) when the test ends.

import { UNCONTAINED } from "./docket-cli.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp.js";
import { tmuxServer } from "./tmux.js";

export const SCRIPTED_MODEL = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "src",
  "surfaces",
  "pi",
  "scripted-model.js",
);
export const SCRIPTED_MODEL_REF = "docket-demo/scripted";
/** The spawn flags of a pi worker that this steps file drives through the scripted model. */
export const scriptedModelFlags = (steps: string): string[] => [
  "--model",
  SCRIPTED_MODEL_REF,
  "--env",
  `DOCKET_SCRIPTED_MODEL=${steps}`,
];

/** A user kind `writer`: writable, no plan gate (the built-in writable kinds are plan-gated, and pi now enforces the gate). */
export const UNGATED_KIND = "writer";

/** Writes the `writer` kind into a Docket home's user kinds. */
export function writeUngatedKind(home: string): void {
  mkdirSync(join(home, "kinds"), { recursive: true });
  writeFileSync(
    join(home, "kinds", `${UNGATED_KIND}.md`),
    `---\nname: ${UNGATED_KIND}\ndescription: writes without a plan (tests)\nplan_gate: false\n---\n`,
  );
}

export interface ScriptedPi {
  root: string;
  vars: Record<string, string>;
  /** Writes a script file and returns its path, for `--env DOCKET_SCRIPTED_MODEL=<path>`. */
  script(name: string, steps: unknown[]): string;
}

export function scriptedPi(t: { after(fn: () => void): void }): ScriptedPi {
  const root = tempDir(t, "docket-scripted-");
  const dirs = {
    home: join(root, "docket"),
    agent: join(root, "agent"),
    tmp: join(root, "tmp"),
    user: join(root, "home"),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  writeUngatedKind(dirs.home);
  const { socket } = tmuxServer(t);
  return {
    root,
    vars: {
      DOCKET_HOME: dirs.home,
      PI_CODING_AGENT_DIR: dirs.agent,
      TMPDIR: dirs.tmp,
      HOME: dirs.user,
      PI_OFFLINE: "1",
      PI_SKIP_VERSION_CHECK: "1",
      PI_TELEMETRY: "0",
      ...UNCONTAINED,
      DOCKET_TMUX_SOCKET: socket,
      DOCKET_PI_ARGS: `-ne -ns -np -nc --no-themes -e ${SCRIPTED_MODEL}`,
    },
    script(name, steps) {
      const path = join(root, name);
      writeFileSync(path, JSON.stringify(steps));
      return path;
    },
  };
}
