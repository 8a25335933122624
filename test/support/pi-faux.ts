// The pi end-to-end recipe as a fixture: a hermetic agent dir, TMPDIR and HOME, the scripted
// faux model loaded into every worker through DOCKET_PI_ARGS, and pi's default model set to faux/faux-1.

import { UNCONTAINED } from "./docket-cli.js";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { FauxStep } from "./faux-provider.js";
import { piHome } from "./pi-home.js";

/** The compiled faux provider extension (dist/test/support/faux-provider.js). */
export const FAUX_EXTENSION = resolve(dirname(fileURLToPath(import.meta.url)), "faux-provider.js");

export const PI_ISOLATION_ARGS = ["-ne", "-ns", "-np", "-nc", "--no-themes"];

export interface PiFaux {
  root: string;
  home: string;
  agentDir: string;
  script: string;
  log: string;
  /** Variables for a docket/pi run: DOCKET_HOME, PI_CODING_AGENT_DIR, TMPDIR, HOME, PI_OFFLINE, DOCKET_PI_ARGS, PI_FAUX_*. */
  vars: Record<string, string>;
}

/**
 * Creates the hermetic dirs, writes the script, and a Docket user config that passes PI_FAUX_SCRIPT and PI_FAUX_LOG
 * into workers (tmux does not inherit the caller's environment).
 */
export function piFaux(
  t: { after(fn: () => void): void },
  steps: FauxStep[],
  options: { passEnv?: string[] } = {},
): PiFaux {
  const dirs = piHome(t, "docket-pi-");
  const { root } = dirs;
  const script = join(root, "script.json");
  const log = join(root, "faux.log");
  writeFileSync(script, JSON.stringify(steps));
  writeFileSync(
    join(dirs.agentDir, "settings.json"),
    JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1" }),
  );
  writeFileSync(
    join(dirs.home, "config.json"),
    JSON.stringify({ worker: { passEnv: ["PI_FAUX_SCRIPT", "PI_FAUX_LOG", ...(options.passEnv ?? [])] } }),
  );
  return {
    root,
    home: dirs.home,
    agentDir: dirs.agentDir,
    script,
    log,
    vars: {
      ...dirs.vars,
      ...UNCONTAINED,
      DOCKET_PI_ARGS: [...PI_ISOLATION_ARGS, "-e", FAUX_EXTENSION].join(" "),
      PI_FAUX_SCRIPT: script,
      PI_FAUX_LOG: log,
    },
  };
}
