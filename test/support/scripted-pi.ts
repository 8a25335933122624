// A hermetic environment for real pi workers driven by Docket's own scripted model (dist/src/surfaces/pi/scripted-model.js):
// temp DOCKET_HOME, pi agent dir, TMPDIR and HOME, a private tmux server stopped (and waited for) when the test ends.

import { UNCONTAINED } from "./docket-cli.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { piHome } from "./pi-home.js";
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
  const dirs = piHome(t, "docket-scripted-");
  const { root } = dirs;
  writeUngatedKind(dirs.home);
  const { socket } = tmuxServer(t);
  return {
    root,
    vars: {
      ...dirs.vars,
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

/**
 * The spawn arguments of a scout with a one-cent budget whose script spends $0.0085 (85 %) on v1, then after a pause
 * $0.003 more (115 %), then takes `last` (a step that would run on if nobody stopped it).
 */
export function centBudgetSpawn(pi: ScriptedPi, last: Record<string, unknown>): string[] {
  const script = pi.script("budget.json", [
    {
      text: "v1.",
      usage: { input: 2000, output: 166 },
      toolCall: {
        name: "docket_done",
        id: "b-1",
        arguments: { outcome: "findings", summary: "first", evidence: [], recommendations: [], items: [] },
      },
    },
    { text: "More work.", usage: { input: 1000, output: 0 }, delayMs: 4000 },
    last,
  ]);
  return ["spawn", "--as", "scout", ...scriptedModelFlags(script), "--budget", "0.01", "--yes", "--json", "work"];
}
