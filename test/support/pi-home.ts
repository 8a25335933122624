// The private dirs a pi run under test lives in: a Docket home, pi's agent dir, a TMPDIR and a HOME, all in one temp
// root, and the variables that point pi and Docket at them (with pi kept offline and quiet).

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PI_HERMETIC } from "./docket-cli.js";
import { tempDir } from "./temp.js";
import type { Hooks } from "./teardown.js";

export interface PiHome {
  root: string;
  /** DOCKET_HOME. */
  home: string;
  /** PI_CODING_AGENT_DIR. */
  agentDir: string;
  vars: {
    DOCKET_HOME: string;
    PI_CODING_AGENT_DIR: string;
    TMPDIR: string;
    HOME: string;
  } & typeof PI_HERMETIC;
}

export function piHome(t: Hooks, prefix: string): PiHome {
  const root = tempDir(t, prefix);
  const dir = (name: string) => {
    mkdirSync(join(root, name));
    return join(root, name);
  };
  const home = dir("docket");
  const agentDir = dir("agent");
  return {
    root,
    home,
    agentDir,
    vars: { DOCKET_HOME: home, PI_CODING_AGENT_DIR: agentDir, TMPDIR: dir("tmp"), HOME: dir("home"), ...PI_HERMETIC },
  };
}
