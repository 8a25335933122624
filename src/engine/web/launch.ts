// Starting and stopping the review page's server process (`dist/src/surfaces/web/main.js`): in the foreground for
// `docket web`, or detached for pi's `/docket web` and `--detach`, returning once its presence record answers a ping.

import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { WebAddress } from "../../domain/web/address.js";
import { refusal } from "../../domain/errors.js";
import { ensurePrivateDir } from "../../files/private.js";
import { readWebPresence } from "../../files/web-presence.js";
import { openUrl, runNodeInForeground, startNodeDetached, stopProcess } from "../../substrate/node-process.js";
import type { EngineContext } from "../context.js";
import { findWebServer, pingWebServer, presencePathOf, type WebPresence } from "./presence.js";
import { helperEnvOf } from "../parent-session.js";

const here = dirname(fileURLToPath(import.meta.url));

/** `dist/src/engine/web` → the package's `bin/docket-web.js`, the web surface's process entry. */
export const webEntryPath = (): string => resolve(here, "..", "..", "..", "..", "bin", "docket-web.js");

export interface WebLaunchInput extends WebAddress {
  open: boolean;
  /** The server prints its address as one JSON object on stdout. */
  json?: boolean;
}

function argvOf(input: WebLaunchInput): string[] {
  return [
    webEntryPath(),
    "--host",
    input.host,
    "--port",
    String(input.port),
    ...(input.open ? ["--open"] : []),
    ...(input.json ? ["--json"] : []),
  ];
}

/** Runs the server in this terminal until it stops (Ctrl-C reaches both processes; this one waits for it). */
export function runWebInForeground(ctx: EngineContext, input: WebLaunchInput): Promise<number> {
  return runNodeInForeground(argvOf(input), { cwd: ctx.cwd, env: helperEnvOf(ctx.env) });
}

/** Starts the server detached (its output goes to `$DOCKET_HOME/web/<project>.log`) and waits until it answers. */
export async function startWebDetached(
  ctx: EngineContext,
  input: WebLaunchInput,
  timeoutMs = 15_000,
): Promise<WebPresence> {
  const record = presencePathOf(ctx);
  ensurePrivateDir(dirname(record));
  const child = startNodeDetached(argvOf(input), {
    cwd: ctx.cwd,
    env: helperEnvOf(ctx.env),
    logPath: record.replace(/\.json$/, ".log"),
  });
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const exited = child.exitCode();
    if (exited !== null)
      throw refusal(
        "web-not-started",
        `the review page's server exited (code ${exited}) before it listened; see ${record.replace(/\.json$/, ".log")}`,
      );
    const p = readWebPresence(record);
    if (p && p.pid === child.pid && (await pingWebServer(p))) return p;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.stop();
  throw refusal(
    "web-not-started",
    `the review page's server did not answer within ${timeoutMs / 1000} s; it was stopped`,
    `see ${record.replace(/\.json$/, ".log")}`,
  );
}

/** Stops this project's running server; undefined when none runs. */
export async function stopWebServer(ctx: EngineContext): Promise<WebPresence | undefined> {
  const p = await findWebServer(ctx);
  if (!p) return undefined;
  stopProcess(p.pid);
  const end = Date.now() + 5_000;
  while (Date.now() < end && readWebPresence(presencePathOf(ctx))?.instance === p.instance)
    await new Promise((r) => setTimeout(r, 50));
  return p;
}

/** Asks the desktop to open `url` (xdg-open / open); best-effort, with the reason when it cannot. */
export function openInBrowser(url: string): Promise<string | undefined> {
  return openUrl(url);
}
