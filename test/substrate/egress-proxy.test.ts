// The egress proxy on a real unix socket with real upstream servers: a connection without a known identity is refused
// (407), a host not allowed gets 403 and a record, CONNECT tunnels and plain HTTP (one request per connection) are
// counted both ways.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer as createHttpServer } from "node:http";
import { connect, createServer, type AddressInfo, type Server } from "node:net";
import { join } from "node:path";
import { createEgressProxy, type EgressRecord } from "../../src/substrate/egress/proxy.js";
import { tempDir } from "../support/temp.js";

async function listen(t: { after(fn: () => void): void }, server: Server, at?: string): Promise<number> {
  await new Promise<void>((ok) => (at ? server.listen(at, ok) : server.listen(0, "127.0.0.1", ok)));
  t.after(() => server.close());
  return at ? 0 : (server.address() as AddressInfo).port;
}

/** Sends `text` after the identity line and reads until the proxy or the upstream closes (a known worker's `ok` kept). */
function exchange(
  socket: string,
  hello: string,
  text: string,
  then?: (reply: string, write: (s: string) => void) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = connect(socket);
    let reply = "";
    c.on("data", (d) => {
      reply += d.toString("latin1");
      then?.(reply, (s) => c.write(s));
    });
    c.on("error", reject);
    c.on("close", () => resolve(reply));
    c.write(`${hello}\n${text}`);
  });
}

test("the proxy: identity first, 403 and a record for a host not allowed, CONNECT and plain HTTP counted both ways", async (t) => {
  const http = createHttpServer((req, res) => {
    res.setHeader("x-seen-path", req.url ?? "");
    res.setHeader("x-seen-connection", req.headers.connection ?? "");
    res.end("HTTP-BODY");
  });
  const httpPort = await listen(t, http);
  const echo = createServer((s) => s.on("data", (d) => s.end(`echo:${d}`)));
  const echoPort = await listen(t, echo);
  const records: EgressRecord<string>[] = [];
  const proxy = createEgressProxy<string>({
    authorize: (line) => (line === "w1" ? { ok: true, who: "w1" } : { ok: false, why: "unknown worker" }),
    decide: (_who, host, port) => ({ allowed: host === "127.0.0.1" && port !== 9, host }),
    record: (r) => records.push(r),
  });
  const socket = join(tempDir(t, "docket-egress-"), "egress.sock");
  await listen(t, proxy, socket);

  assert.match(
    await exchange(socket, "w9", "CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n"),
    /^HTTP\/1\.1 407 .*unknown worker/s,
  );
  assert.match(
    await exchange(socket, "w1", "CONNECT example.com:443 HTTP/1.1\r\n\r\n"),
    /^ok\nHTTP\/1\.1 403 .*example\.com:443 is not on this worker's network allow list/s,
  );
  assert.match(await exchange(socket, "w1", "GET /relative HTTP/1.1\r\n\r\n"), /^ok\nHTTP\/1\.1 400 /);

  const tunnel = await exchange(
    socket,
    "w1",
    `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: x\r\n\r\n`,
    (reply, write) => {
      if (reply === "ok\nHTTP/1.1 200 Connection established\r\n\r\n") write("ping");
    },
  );
  assert.equal(tunnel, "ok\nHTTP/1.1 200 Connection established\r\n\r\necho:ping");

  const plain = await exchange(
    socket,
    "w1",
    `GET http://127.0.0.1:${httpPort}/a?b=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Connection: keep-alive\r\nConnection: keep-alive\r\n\r\n`,
  );
  assert.match(plain, /^ok\nHTTP\/1\.1 200 OK/);
  assert.match(plain, /x-seen-path: \/a\?b=1/i, "sent in origin form");
  assert.match(plain, /x-seen-connection: close/i, "one request per connection");
  assert.match(plain, /HTTP-BODY$/);

  await new Promise((r) => setTimeout(r, 50));
  const seen = records.map((r) => [r.host, r.port, r.allowed]);
  assert.deepEqual(seen, [
    ["example.com", 443, false],
    ["127.0.0.1", echoPort, true],
    ["127.0.0.1", httpPort, true],
  ]);
  assert.equal(records[1]!.bytesUp, 4);
  assert.equal(records[1]!.bytesDown, "echo:ping".length);
  assert.ok(records[2]!.bytesUp > 0 && records[2]!.bytesDown > plain.indexOf("HTTP-BODY"));
});
