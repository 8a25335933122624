// Starting and stopping the review page's server process (`dist/src/surfaces/web/main.js`): in the foreground for
// `docket web`, or detached for pi's `/docket web` and `--detach`, returning once its presence record answers a ping.

import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { WebAddress } from "../../domain/web/address.js";
import { refusal } from "../../domain/errors.js";
import { readWebPresence } from "../../files/web-presence.js";
import type { EngineContext } from "../context.js";
import { findWebServer, pingWebServer, presencePathOf, type WebPresence } from "./presence.js";

const here = dirname(fileURLToPath(import.meta.url));

/** `dist/src/engine/web` → the package's `bin/docket-web.js`, the web surface's process entry. */
export const webEntryPath = (): string => resolve(here, "..", "..", "..", "..", "bin", "docket-web.js");

export interface WebLaunchInput extends WebAddress {
  open: boolean;
  /** The server prints its address as one JSON object on stdout. */
  json?: boolean;
}

function argvOf(input: WebLaunchInput): string[] {
  return [webEntryPath(), "--host", input.host, "--port", String(input.port), ...(input.open ? ["--open"] : []), ...(input.json ? ["--json"] : [])];
}

/** Runs the server in this terminal until it stops (Ctrl-C reaches both processes; this one waits for it). */
export function runWebInForeground(ctx: EngineContext, input: WebLaunchInput): Promise<number> {
  const child = spawn(process.execPath, argvOf(input), { cwd: ctx.cwd, env: ctx.env, stdio: "inherit" });
  const ignore = (): void => {}; // the child got the same terminal signal and shuts itself down; wait for it
  process.on("SIGINT", ignore);
  const forward = (): void => void child.kill("SIGTERM");
  process.on("SIGTERM", forward);
  return new Promise((done, fail) => {
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", ignore);
      process.off("SIGTERM", forward);
      done(code ?? (signal ? 1 : 0));
    });
  });
}

/** Starts the server detached (its output goes to `$DOCKET_HOME/web/<project>.log`) and waits until it answers. */
export async function startWebDetached(ctx: EngineContext, input: WebLaunchInput, timeoutMs = 15_000): Promise<WebPresence> {
  const record = presencePathOf(ctx);
  mkdirSync(dirname(record), { recursive: true, mode: 0o700 });
  const log = openSync(record.replace(/\.json$/, ".log"), "a", 0o600);
  let child;
  try {
    child = spawn(process.execPath, argvOf(input), { cwd: ctx.cwd, env: ctx.env, detached: true, stdio: ["ignore", log, log] });
  } finally {
    closeSync(log);
  }
  child.unref();
  let exited: number | null = null;
  child.on("exit", (code) => (exited = code ?? 1));
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (exited !== null) throw refusal("web-not-started", `the review page's server exited (code ${exited}) before it listened; see ${record.replace(/\.json$/, ".log")}`);
    const p = readWebPresence(record);
    if (p && p.pid === child.pid && (await pingWebServer(p))) return p;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGTERM");
  throw refusal("web-not-started", `the review page's server did not answer within ${timeoutMs / 1000} s; it was stopped`, `see ${record.replace(/\.json$/, ".log")}`);
}

/** Stops this project's running server; undefined when none runs. */
export async function stopWebServer(ctx: EngineContext): Promise<WebPresence | undefined> {
  const p = await findWebServer(ctx);
  if (!p) return undefined;
  process.kill(p.pid, "SIGTERM");
  const end = Date.now() + 5_000;
  while (Date.now() < end && readWebPresence(presencePathOf(ctx))?.instance === p.instance) await new Promise((r) => setTimeout(r, 50));
  return p;
}

/** Asks the desktop to open `url` (xdg-open / open); best-effort, with the reason when it cannot. */
export function openInBrowser(url: string): Promise<string | undefined> {
  const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? undefined : "xdg-open";
  if (!opener) return Promise.resolve(`no browser opener on ${process.platform}`);
  return new Promise((done) => {
    const child = spawn(opener, [url], { stdio: "ignore", detached: true });
    child.on("error", (error) => done(`${opener}: ${error.message}`));
    child.on("spawn", () => {
      child.unref();
      done(undefined);
    });
  });
}
