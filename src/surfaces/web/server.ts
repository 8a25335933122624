// The review page's HTTP server (plain node:http on a loopback address): the gate first (Host, sign-in, session,
// write checks), then the one write, the event stream, the package's assets, or a read route. Every reply is hardened.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isDocketError, type DocketError } from "../../domain/errors.js";
import type { EngineContext } from "../../engine/context.js";
import { runAction, STALE_CODES } from "../../engine/review/card-act.js";
import { parseActRequest } from "./actions.js";
import { loadAssets, type Assets } from "./assets.js";
import { createGate, MAX_SESSIONS, SECURITY_HEADERS, type Gate, type Session } from "./guard.js";
import { escapeHtml } from "./html.js";
import { createLiveHub, type LiveHub } from "./live.js";
import { renderMessage, renderPage } from "./pages/layout.js";
import { matchRead, type Reply } from "./routes.js";
import type { DiffMode } from "./pages/diff.js";
import type { ReviewFiles } from "../../engine/review/review-files.js";
import { html } from "./html.js";

export interface WebServerOptions {
  ctx: EngineContext;
  host: string;
  port: number;
  secret: string;
  /** Each new single-use sign-in key, once the previous one was used. */
  onLoginKey?: (key: string) => void;
  instance: string;
  assets?: Assets;
  /** Where the server reports what it cannot show a page (internal errors). */
  log?: (line: string) => void;
  pollMs?: number;
}

export interface WebServer {
  host: string;
  port: number;
  live: LiveHub;
  close(): Promise<void>;
}

const MAX_BODY = 256 * 1024;
const TYPES = { html: "text/html; charset=utf-8", json: "application/json; charset=utf-8" } as const;

const STATUS: Record<string, number> = {
  "not-found": 404,
  validation: 400,
  usage: 400,
  refusal: 409,
  conflict: 409,
  fenced: 409,
  internal: 500,
};

function send(
  res: ServerResponse,
  status: number,
  type: keyof typeof TYPES | "text",
  body: string,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "content-type": type === "text" ? "text/plain; charset=utf-8" : TYPES[type],
    "cache-control": "no-store",
    ...extra,
  });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw Object.assign(new Error("request body too large"), { tooLarge: true });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function modeOf(req: IncomingMessage, url: URL): DiffMode {
  const q = url.searchParams.get("view");
  if (q === "split" || q === "unified") return q;
  return /(?:^|;\s*)docket_view=split(?:;|$)/.test(req.headers.cookie ?? "") ? "split" : "unified";
}

const errorJson = (e: DocketError) =>
  JSON.stringify({
    error: { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) },
    stale: STALE_CODES.has(e.code),
  });

/** What every request of one server reads: its options, assets, live hub, gate and per-version diff cache. */
interface Served {
  o: WebServerOptions;
  assets: Assets;
  live: LiveHub;
  diffs: Map<string, ReviewFiles>;
  gate: Gate;
}

export async function startWebServer(o: WebServerOptions): Promise<WebServer> {
  const assets = o.assets ?? loadAssets();
  const live = createLiveHub(o.ctx, { pollMs: o.pollMs, onError: (e) => o.log?.(`live: ${e.message}`) });
  let served: Served | undefined; // the gate needs the port the server was given, so it is made once listening
  const server = createServer((req, res) => {
    handle(served!, req, res).catch((error) => {
      o.log?.(`unhandled: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) send(res, 500, "text", "internal error");
      else res.end();
    });
  });
  await new Promise<void>((done, failed) => {
    server.once("error", failed);
    server.listen(o.port, o.host, () => {
      server.off("error", failed);
      done();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const gate = createGate({
    host: o.host,
    port,
    secret: o.secret,
    ...(o.onLoginKey ? { onLoginKey: o.onLoginKey } : {}),
  });
  served = { o, assets, live, diffs: new Map(), gate };
  return {
    host: o.host,
    port,
    live,
    close: () =>
      new Promise<void>((done) => {
        live.stop();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** The gate (Host, ping, sign-in, session), then the one write, the event stream, an asset or a read route. */
async function handle(sv: Served, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const g = sv.gate;
  if (!g.hostAllowed(req))
    return send(res, 421, "text", "refused: this server answers only to its own loopback address");
  const url = new URL(req.url ?? "/", "http://docket.invalid");
  if (url.pathname === "/_ping") {
    if (req.method === "GET" && g.bearerAllowed(req))
      return send(res, 200, "json", JSON.stringify({ instance: sv.o.instance }));
    return send(res, 401, "text", "refused: not authorised");
  }
  const k = url.searchParams.get("k");
  if (k !== null && req.method === "GET") return signIn(g, k, url, res);
  const session = g.session(req);
  if (!session)
    return send(
      res,
      401,
      "html",
      renderMessage("Not signed in", [
        "Open the address `docket web` printed: it signs this browser in.",
        "Run `docket web` in the project to see it again.",
      ]),
    );
  try {
    if (req.method === "POST") return await act(sv, req, res, url, session);
    if (req.method !== "GET" && req.method !== "HEAD")
      return send(res, 405, "text", "method not allowed", { allow: "GET, HEAD, POST" });
    if (url.pathname === "/events") {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      return sv.live.attach(res);
    }
    if (url.pathname.startsWith("/assets/")) return serveAsset(sv.assets, url, res);
    const route = matchRead(url.pathname);
    if (!route) return send(res, 404, "html", renderMessage("Not found", [`Nothing lives at ${url.pathname}.`]));
    const read = {
      ctx: sv.o.ctx,
      assets: sv.assets,
      live: sv.live,
      csrf: session.csrf,
      url,
      mode: modeOf(req, url),
      diffs: sv.diffs,
    };
    const reply: Reply = await route.handler(read, route.params);
    return send(res, reply.status, reply.type, reply.body);
  } catch (error) {
    fail(sv, req, res, error, session.csrf);
  }
}

/** A single-use sign-in key: a session cookie and a redirect to the same page without the key, or why not. */
function signIn(g: Gate, k: string, url: URL, res: ServerResponse): void {
  const s = g.login(k);
  if (s === "full")
    return send(
      res,
      503,
      "html",
      renderMessage("Too many signed-in browsers", [
        `This server already has ${MAX_SESSIONS} signed-in browsers; a new sign-in never signs one of them out.`,
        "Restart `docket web` to sign every browser out and start afresh.",
      ]),
    );
  if (s === "invalid")
    return send(
      res,
      403,
      "html",
      renderMessage("Sign-in link not valid", [
        "This link was already used, or it is from another start of the server: each address signs one browser in once.",
        "Run `docket web` again and open the address it prints now.",
      ]),
    );
  url.searchParams.delete("k");
  return send(res, 303, "text", "signed in", { location: `${url.pathname}${url.search}`, "set-cookie": g.cookie(s) });
}

/** The one write: POST /act, checked by the gate's write rules, run through the card dispatcher. */
async function act(sv: Served, req: IncomingMessage, res: ServerResponse, url: URL, session: Session): Promise<void> {
  if (url.pathname !== "/act")
    return send(res, 404, "json", JSON.stringify({ error: { code: "not-found", message: "no such action" } }));
  const refused = sv.gate.writeRefusal(req, session);
  if (refused) return send(res, 403, "json", JSON.stringify({ error: { code: "write-refused", message: refused } }));
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req));
  } catch (error) {
    return send(
      res,
      (error as { tooLarge?: boolean }).tooLarge ? 413 : 400,
      "json",
      JSON.stringify({ error: { code: "bad-action", message: "the action is not a JSON object of at most 256 KiB" } }),
    );
  }
  try {
    const result = await runAction(sv.o.ctx, parseActRequest(body));
    return send(res, 200, "json", JSON.stringify({ ok: true, lines: result.lines }));
  } catch (error) {
    if (!isDocketError(error)) throw error;
    return send(res, STATUS[error.category] ?? 500, "json", errorJson(error));
  } finally {
    sv.live.poke(); // this connection's own commits do not move its data_version
  }
}

function serveAsset(assets: Assets, url: URL, res: ServerResponse): void {
  const a = assets.get(url.pathname.slice(8));
  if (!a) return send(res, 404, "text", "no such asset");
  const cache = url.searchParams.has("v") ? "private, max-age=31536000, immutable" : "no-cache";
  res.writeHead(200, { ...SECURITY_HEADERS, "content-type": a.type, "cache-control": cache });
  res.end(a.body);
}

/** A failed read: a fragment's one-line error, or a page; what is not a DocketError goes to the server's log. */
function fail(sv: Served, req: IncomingMessage, res: ServerResponse, error: unknown, csrf: string): void {
  const e = isDocketError(error) ? error : undefined;
  if (!e) sv.o.log?.(`error on ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
  const status = e ? (STATUS[e.category] ?? 500) : 500;
  const message = e ? e.message : "the page could not be built; see the server's output";
  if (req.headers["x-docket-fragment"] === "1")
    return send(res, status, "html", `<p class="error">${escapeHtml(message)}</p>`);
  const main = html`<h1>${status === 404 ? "Not found" : "Cannot show this"}</h1><p class="error">${message}</p>${e?.hint ? html`<p class="hint">${e.hint}</p>` : ""}<p><a href="/">Back to the queue</a></p>`;
  const page = {
    title: "Error",
    nav: "queue" as const,
    csrf,
    assets: sv.assets.urls,
    projectRoot: sv.o.ctx.projectRoot(),
    needs: sv.live.current().needs,
    main,
  };
  send(res, status, "html", renderPage(page));
}
