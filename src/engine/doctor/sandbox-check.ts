// The doctor's containment check: whether bubblewrap can contain workers on this machine, and if not why and what to do.
// A problem only when the config requires containment; otherwise a warning that workers run uncontained.

import { join } from "node:path";
import { resolveConfig, type SandboxMode } from "../../domain/config.js";
import type { HomeLayout } from "../../files/home.js";
import { readJsonFile } from "../../files/json-file.js";
import { projectRootOf } from "../../substrate/project.js";
import { bwrapVersion, detectSandbox } from "../../substrate/sandbox/bwrap.js";
import { ok, type Finding } from "./findings.js";

function configuredMode(home: HomeLayout, env: NodeJS.ProcessEnv, cwd: string): SandboxMode {
  const read = (path: string) => {
    const r = readJsonFile(path);
    return r.ok === true ? r.value : undefined;
  };
  return resolveConfig(read(home.config), read(join(projectRootOf(cwd), ".docket", "config.json")), env).config.sandbox
    .mode;
}

export function checkSandbox(home: HomeLayout, env: NodeJS.ProcessEnv, cwd: string): Finding {
  const mode = configuredMode(home, env, cwd);
  const support = detectSandbox(env.PATH);
  if (support.ok) {
    const note =
      mode === "off"
        ? `; sandbox is off (${env.DOCKET_SANDBOX === "off" ? "DOCKET_SANDBOX=off" : "your config"}), so workers run uncontained (set "sandbox": "auto")`
        : "";
    return ok(
      "sandbox",
      `workers can be contained here (bubblewrap ${bwrapVersion(support.bwrap)} at ${support.bwrap})${note}`,
    );
  }
  const effect =
    mode === "required"
      ? 'sandbox is "required", so spawns are refused'
      : mode === "auto"
        ? "workers run uncontained"
        : "sandbox is off anyway";
  return {
    check: "sandbox",
    severity: mode === "required" ? "problem" : mode === "auto" ? "warning" : "ok",
    message: `${support.reason}; ${effect}`,
    fix: support.fix,
  };
}
