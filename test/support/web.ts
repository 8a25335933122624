// The review page on a review ground: its own engine connection (as the server process would have), a real server on
// 127.0.0.1 with a fresh secret, and helpers to sign a browser in and read what the server logged.

import { UNCONTAINED } from "./docket-cli.js";
import { randomBytes } from "node:crypto";
import type { EngineContext } from "../../src/engine/context.js";
import { openEngine } from "../../src/engine/open.js";
import type { Clock } from "../../src/substrate/clock.js";
import { startWebServer, type WebServer } from "../../src/surfaces/web/server.js";
import type { BrowserContext, Page } from "playwright-core";
import type { ReviewGround } from "./review-fixture.js";
import { tmuxServer } from "./tmux.js";

export interface WebFixture {
  server: WebServer;
  ctx: EngineContext;
  origin: string;
  login: string;
  secret: string;
  log: string[];
}

/** `clock`: the server reads the ground's test clock (ages on a page), else the real one. */
export async function webServer(
  t: { after(fn: () => void | Promise<void>): void },
  g: ReviewGround,
  options: { clock?: Clock } = {},
): Promise<WebFixture> {
  const ctx = openEngine({
    env: { DOCKET_HOME: g.home, DOCKET_TMUX_SOCKET: tmuxServer(t).socket, ...UNCONTAINED },
    cwd: g.project,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const secret = randomBytes(32).toString("base64url");
  const log: string[] = [];
  const server = await startWebServer({
    ctx,
    host: "127.0.0.1",
    port: 0,
    secret,
    instance: randomBytes(8).toString("hex"),
    log: (l) => log.push(l),
    pollMs: 100,
  });
  t.after(async () => {
    await server.close();
    ctx.close();
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return { server, ctx, origin, login: `${origin}/?k=${secret}`, secret, log };
}

/** A page signed in through the login address (the secret is exchanged for the session cookie), then at `path`. */
export async function signedIn(context: BrowserContext, web: WebFixture, path = "/"): Promise<Page> {
  const page = await context.newPage();
  await page.goto(web.login);
  if (path !== "/") await page.goto(`${web.origin}${path}`);
  return page;
}
