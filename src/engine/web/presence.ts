// Finding the running review page of this project: its presence record, checked by pid and by an authenticated
// ping that must answer with the record's instance id (a reused pid or a stale file is never taken for the server).

import { urlHost } from "../../domain/web/address.js";
import { refusal } from "../../domain/errors.js";
import {
  readWebPresence,
  removeWebPresence,
  webPresencePath,
  writeWebPresence,
  type WebPresence,
} from "../../files/web-presence.js";
import { isProcessAlive } from "../../substrate/process.js";
import { parentAgentOf } from "../authority.js";
import type { EngineContext } from "../context.js";

export type { WebPresence };

export const presencePathOf = (ctx: EngineContext): string => webPresencePath(ctx.home, ctx.projectRoot());

/** The review page acts with the human's authority: a process carrying a worker identity may not start or open it. */
export function assertHumanForWeb(ctx: EngineContext): void {
  const w = ctx.env.DOCKET_WORKER_ID?.trim();
  if (w)
    throw refusal(
      "worker-cannot-judge",
      `this process runs as worker ${w} (DOCKET_WORKER_ID); the review page is the human's, so it is not started or shown here; nothing changed`,
      "run `docket web` in your own terminal",
    );
  // Its sign-in address would let the session's model judge through the page.
  const agent = parentAgentOf(ctx);
  if (agent)
    throw refusal(
      "parent-agent-cannot-judge",
      `this process was started by the pi session's own tools (${agent}); the review page is the human's, so it is not started or shown here; nothing changed`,
      "run `docket web` in a terminal of your own, or type the command in pi's editor yourself",
    );
}

export const webBaseUrl = (p: Pick<WebPresence, "host" | "port">): string => `http://${urlHost(p.host)}:${p.port}`;
/** The address that signs one browser in, with the server's current single-use key. */
export const webLoginUrl = (p: WebPresence, path = "/"): string =>
  `${webBaseUrl(p)}${path}${path.includes("?") ? "&" : "?"}k=${p.login ?? p.secret}`;
/** A card's address without the secret: it opens in a browser that already signed in with the login URL. */
export const webCardUrl = (p: Pick<WebPresence, "host" | "port">, worker: string, version?: number): string =>
  `${webBaseUrl(p)}/card/${worker}${version === undefined ? "" : `/v/${version}`}`;

/** Answers whether the server at `p` is up and is the instance its record names. */
export async function pingWebServer(p: WebPresence, timeoutMs = 1_500): Promise<boolean> {
  try {
    const r = await fetch(`${webBaseUrl(p)}/_ping`, {
      headers: { authorization: `Bearer ${p.secret}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (r.status !== 200) return false;
    return ((await r.json()) as { instance?: unknown }).instance === p.instance;
  } catch {
    return false; // refused, timed out or not our server: treated as no server
  }
}

/** The live review page of this project, or undefined. */
export async function findWebServer(ctx: EngineContext): Promise<WebPresence | undefined> {
  return findWebServerOf(ctx, ctx.projectRoot());
}

/** The running review page of another project of this home (a sender that serves every project: the door). */
export async function findWebServerOf(ctx: EngineContext, projectRoot: string): Promise<WebPresence | undefined> {
  const p = readWebPresence(webPresencePath(ctx.home, projectRoot));
  if (!p || !isProcessAlive(p.pid)) return undefined;
  return (await pingWebServer(p)) ? p : undefined;
}

/** Written by the server once it listens, so `docket web`, `/docket web` and `docket verdict` can find it. */
export function registerWebServer(ctx: EngineContext, presence: WebPresence): void {
  writeWebPresence(presencePathOf(ctx), presence);
}

/** Removed by the same instance when it stops (a newer server's record is left alone). */
export function unregisterWebServer(ctx: EngineContext, instance: string): void {
  removeWebPresence(presencePathOf(ctx), instance);
}
