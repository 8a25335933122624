// The egress proxy on one unix socket: each connection names its worker in a first line (answered `ok` when known),
// then speaks HTTP proxy (CONNECT for TLS, absolute-form requests for plain HTTP); every request is decided by the caller
// and counted both ways.

import { connect, createServer, type Server, type Socket } from "node:net";

/** What the proxy asks of its owner for one connection's first line: the worker's decide function, or a refusal. */
export type Authorize<W> = (hello: string) => { ok: true; who: W } | { ok: false; why: string };

/** One finished request: where it went, whether it was let through, and the bytes each way. */
export interface EgressRecord<W> {
  who: W;
  host: string;
  port: number;
  allowed: boolean;
  bytesUp: number;
  bytesDown: number;
  at: Date;
}

export interface EgressProxyOptions<W> {
  authorize: Authorize<W>;
  /** The request's verdict (its host normalised), given the worker. */
  decide(who: W, host: string, port: number): { allowed: boolean; host: string };
  record(r: EgressRecord<W>): void;
}

/** Sent once the first line names a known worker: the relay holds its client's bytes until then (relay-main.ts). */
export const EGRESS_ACK = "ok\n";

/** The most a first line and an HTTP head may take before the connection is refused. */
const HEAD_MAX = 32 * 1024;

/** Listens for relayed connections; `listen(path)` is the caller's (it knows how sockets are placed there). */
export function createEgressProxy<W>(options: EgressProxyOptions<W>): Server {
  return createServer((conn) => handle(conn, options));
}

function handle<W>(conn: Socket, options: EgressProxyOptions<W>): void {
  let buffered = Buffer.alloc(0);
  let who: W | undefined;
  conn.on("error", () => conn.destroy());
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (who === undefined) {
      const nl = buffered.indexOf(10);
      if (nl < 0) return void (buffered.length > HEAD_MAX && conn.destroy());
      const verdict = options.authorize(buffered.subarray(0, nl).toString("utf8"));
      buffered = buffered.subarray(nl + 1);
      if (!verdict.ok) return void conn.end(reply(407, verdict.why));
      who = verdict.who;
      conn.write(EGRESS_ACK);
    }
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) return void (buffered.length > HEAD_MAX && conn.end(reply(431, "request head too large")));
    conn.off("data", onData);
    conn.pause();
    const head = buffered.subarray(0, end).toString("latin1");
    forward(conn, options, who, head, buffered.subarray(end + 4));
  };
  conn.on("data", onData);
}

function reply(status: number, why: string): string {
  const text = {
    400: "Bad Request",
    403: "Forbidden",
    407: "Proxy Authentication Required",
    431: "Too Large",
    502: "Bad Gateway",
  }[status];
  const body = `docket egress: ${why}\n`;
  return `HTTP/1.1 ${status} ${text}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** `host:port` or `[v6]:port`; undefined when the port is missing or out of range. */
function splitAuthority(authority: string, defaultPort?: number): { host: string; port: number } | undefined {
  const m = /^(\[[^\]]+\]|[^:/]+)(?::([0-9]{1,5}))?$/.exec(authority);
  if (!m) return undefined;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (port === undefined || port < 1 || port > 65535) return undefined;
  return { host: m[1]!.replace(/^\[|\]$/g, ""), port };
}

/** The destination and what to send first: CONNECT opens a tunnel; an absolute-form request is sent in origin form. */
function target(head: string): { host: string; port: number; tunnel: boolean; first?: string } | undefined {
  const [requestLine = "", ...headers] = head.split("\r\n");
  const m = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(requestLine);
  if (!m) return undefined;
  const [, method, uri, version] = m as unknown as [string, string, string, string];
  if (method === "CONNECT") {
    const dest = splitAuthority(uri);
    return dest && { ...dest, tunnel: true };
  }
  const abs = /^http:\/\/([^/?#]+)([^#]*)$/i.exec(uri);
  if (!abs) return undefined;
  const dest = splitAuthority(abs[1]!, 80);
  if (!dest) return undefined;
  const path = abs[2] || "/";
  // One request per connection: the next one on a kept-alive connection would go to this host unchecked and unparsed.
  const kept = headers.filter((h) => !/^(proxy-connection|proxy-authorization|connection|keep-alive)\s*:/i.test(h));
  const first = [`${method} ${path} ${version}`, ...kept, "Connection: close", "", ""].join("\r\n");
  return { ...dest, tunnel: false, first };
}

function forward<W>(conn: Socket, options: EgressProxyOptions<W>, who: W, head: string, rest: Buffer): void {
  const dest = target(head);
  if (!dest) return void conn.end(reply(400, "only CONNECT host:port and http:// requests go through this proxy"));
  const verdict = options.decide(who, dest.host, dest.port);
  const counts = { up: 0, down: 0 };
  let recorded = false;
  const done = () => {
    if (recorded) return;
    recorded = true;
    const { host } = verdict;
    options.record({
      who,
      host,
      port: dest.port,
      allowed: verdict.allowed,
      bytesUp: counts.up,
      bytesDown: counts.down,
      at: new Date(),
    });
  };
  if (!verdict.allowed) {
    done();
    return void conn.end(reply(403, `${verdict.host}:${dest.port} is not on this worker's network allow list`));
  }
  const upstream = connect({ host: dest.host, port: dest.port });
  const close = () => {
    done();
    conn.destroy();
    upstream.destroy();
  };
  upstream.on("error", (error) => {
    if (counts.down === 0 && conn.writable)
      conn.end(reply(502, `cannot reach ${dest.host}:${dest.port}: ${error.message}`));
    done();
    upstream.destroy();
  });
  conn.on("close", close);
  upstream.on("close", close);
  upstream.once("connect", () => {
    if (dest.tunnel) conn.write("HTTP/1.1 200 Connection established\r\n\r\n");
    else {
      counts.up += Buffer.byteLength(dest.first!, "latin1");
      upstream.write(dest.first!, "latin1");
    }
    if (rest.length > 0) {
      counts.up += rest.length;
      upstream.write(rest);
    }
    conn.on("data", (chunk: Buffer) => {
      counts.up += chunk.length;
      if (!upstream.write(chunk)) conn.pause();
    });
    upstream.on("drain", () => conn.resume());
    upstream.on("data", (chunk: Buffer) => {
      counts.down += chunk.length;
      if (!conn.write(chunk)) upstream.pause();
    });
    conn.on("drain", () => upstream.resume());
    conn.on("end", () => upstream.end());
    upstream.on("end", () => conn.end());
    conn.resume();
  });
}
