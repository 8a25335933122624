// The review page's gate over real HTTP on loopback: nothing answers without the session the per-start secret buys,
// a foreign Host is refused (DNS rebinding), and a write needs the page's Origin and CSRF token; every reply has the CSP.

import { test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { appWith, decisionCount, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { webServer, type WebFixture } from "../../support/web.js";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request (fetch would not let the test forge Host, Origin or Sec-Fetch-Site). */
function raw(
  web: WebFixture,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Raw> {
  return new Promise((done, fail) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: web.server.port,
        path,
        method: options.method ?? "GET",
        headers: { host: `127.0.0.1:${web.server.port}`, ...options.headers },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", fail);
    req.end(options.body);
  });
}

async function signIn(web: WebFixture): Promise<{ cookie: string; csrf: string }> {
  const login = await raw(web, `/?k=${web.secret}`);
  assert.equal(login.status, 303);
  const set = String(login.headers["set-cookie"]);
  assert.match(set, /HttpOnly/);
  assert.match(set, /SameSite=Strict/);
  assert.equal(login.headers.location, "/", "the secret leaves the address bar");
  const cookie = set.split(";")[0]!;
  const page = await raw(web, "/", { headers: { cookie } });
  const csrf = /<meta name="docket-csrf" content="([^"]+)">/.exec(page.body)![1]!;
  return { cookie, csrf };
}

const approveBody = (worker: string) => JSON.stringify({ verb: "approve", worker, version: 1, lastDecision: null });

test("without the session nothing is shown or changed, and a wrong secret buys no session", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const web = await webServer(t, g);
  for (const path of [
    "/",
    `/card/${w.worker}`,
    `/card/${w.worker}/v/1/file/0`,
    "/fleet",
    "/log",
    "/store",
    "/events",
    "/assets/app.js",
  ]) {
    const r = await raw(web, path);
    assert.equal(r.status, 401, path);
    assert.doesNotMatch(r.body, /change the app|src\/app\.txt/, `${path} shows nothing of the ledger`);
    assert.equal(
      r.headers["content-security-policy"],
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  }
  const wrong = await raw(web, `/?k=${"x".repeat(43)}`);
  assert.equal(wrong.status, 403);
  assert.equal(wrong.headers["set-cookie"], undefined);
  const post = await raw(web, "/act", {
    method: "POST",
    headers: { "content-type": "application/json", origin: web.origin },
    body: approveBody(w.worker),
  });
  assert.equal(post.status, 401);
  assert.equal((await raw(web, "/_ping")).status, 401, "the discovery ping needs the secret too");
  assert.equal(
    JSON.parse((await raw(web, "/_ping", { headers: { authorization: `Bearer ${web.secret}` } })).body).instance
      .length > 0,
    true,
  );
  assert.equal(decisionCount(g.ctx), 0);
});

test("a request naming another host is refused even with a valid session (no DNS rebinding)", async (t) => {
  const g = reviewGround(t);
  const web = await webServer(t, g);
  const { cookie } = await signIn(web);
  assert.equal((await raw(web, "/", { headers: { cookie } })).status, 200);
  assert.equal(
    (await raw(web, `/?k=${web.secret}`, { headers: { host: `attacker.example:${web.server.port}` } })).status,
    421,
  );
  const rebound = await raw(web, "/", { headers: { cookie, host: `attacker.example:${web.server.port}` } });
  assert.equal(rebound.status, 421);
  assert.doesNotMatch(rebound.body, /docket-csrf/);
  assert.equal(
    (await raw(web, "/", { headers: { cookie, host: `localhost:${web.server.port}` } })).status,
    200,
    "localhost names the same loopback server",
  );
});

test("a write from another origin, without the CSRF token or not as JSON is refused and changes nothing", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 2: "two" }) });
  const web = await webServer(t, g);
  const { cookie, csrf } = await signIn(web);
  const json = { cookie, "content-type": "application/json" };
  const attempts: [string, Record<string, string>][] = [
    ["another port on the same host", { ...json, origin: "http://127.0.0.1:9", "x-docket-csrf": csrf }],
    ["another site", { ...json, origin: "http://attacker.example", "x-docket-csrf": csrf }],
    ["no Origin", { ...json, "x-docket-csrf": csrf }],
    ["a cross-site fetch", { ...json, origin: web.origin, "x-docket-csrf": csrf, "sec-fetch-site": "cross-site" }],
    ["no CSRF token", { ...json, origin: web.origin }],
    ["a wrong CSRF token", { ...json, origin: web.origin, "x-docket-csrf": "nope" }],
    [
      "a form post",
      { cookie, "content-type": "application/x-www-form-urlencoded", origin: web.origin, "x-docket-csrf": csrf },
    ],
  ];
  for (const [what, headers] of attempts) {
    const r = await raw(web, "/act", { method: "POST", headers, body: approveBody(w.worker) });
    assert.equal(r.status, 403, what);
    assert.equal(JSON.parse(r.body).error.code, "write-refused", what);
  }
  assert.equal(decisionCount(g.ctx), 0);
  const ok = await raw(web, "/act", {
    method: "POST",
    headers: { ...json, origin: web.origin, "x-docket-csrf": csrf, "sec-fetch-site": "same-origin" },
    body: approveBody(w.worker),
  });
  assert.equal(ok.status, 200, ok.body);
  assert.match(JSON.parse(ok.body).lines[0], new RegExp(`^dc\\d+ approve worker-deliverable:${w.worker}:1$`));
  assert.equal(decisionCount(g.ctx), 1, "the same request from the page itself goes through");
});
