// Runs `node <args>` with module-log-preload.js: which files the process loaded (ES modules and CommonJS files, node's
// own and the logger's excluded), optionally with some bare specifiers made unresolvable.

import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export interface LoggedRun {
  run: SpawnSyncReturns<string>;
  esm: string[];
  cjs: string[];
}

export function runLoggingModules(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; block?: string[] },
): LoggedRun {
  const dir = mkdtempSync(join(tmpdir(), "docket-module-log-"));
  try {
    const log = join(dir, "modules.log");
    const env = { ...options.env, DOCKET_MODULE_LOG: log, DOCKET_MODULE_BLOCK: (options.block ?? []).join(",") };
    const preload = new URL("./module-log-preload.js", import.meta.url).href;
    const run = spawnSync(process.execPath, ["--import", preload, ...args], {
      cwd: options.cwd,
      env,
      encoding: "utf8",
      timeout: 120_000,
    });
    let text = "";
    try {
      text = readFileSync(log, "utf8");
    } catch {
      // the process loaded nothing through the hooks (it failed before its first import)
    }
    const self = new URL("./module-log", import.meta.url).href;
    const cjs = new Set<string>();
    const esm = new Set<string>();
    for (const line of text.split("\n")) {
      if (line.startsWith("cjs ")) cjs.add(pathToFileURL(line.slice(4)).href);
      else if (line.startsWith("esm ") && !line.slice(4).startsWith(self)) esm.add(line.slice(4));
    }
    for (const url of cjs) esm.delete(url);
    return { run, esm: [...esm], cjs: [...cjs] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
