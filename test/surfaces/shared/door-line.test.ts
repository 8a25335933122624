// The door's transport: over node's pipe handle and over net, the same reply line and the same Unreached for every way
// a door can fail to answer — against real Unix sockets in a temp dir, and a real node with --pending-deprecation.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { exchangeLine, pipeHandles, Unreached, type LineOptions } from "../../../src/surfaces/shared/door-line.js";
import { nodeAsync } from "../../support/docket-cli.js";
import { tempDir } from "../../support/temp.js";

const LINE_MODULE = new URL("../../../src/surfaces/shared/door-line.js", import.meta.url).href;
const TRANSPORTS: { name: string; over?: "net" }[] = [{ name: "pipe" }, { name: "net", over: "net" }];

/** A Unix socket server for one test; its connections are destroyed before it closes (close waits for them). */
async function serve(t: { after(fn: () => void | Promise<void>): void }, path: string, onConn: (c: Socket) => void) {
  const open = new Set<Socket>();
  const server: Server = createServer((c) => {
    open.add(c);
    c.on("close", () => open.delete(c));
    c.on("error", () => {}); // the client hangs up once it has its line
    onConn(c);
  });
  await new Promise<void>((ok) => server.listen(path, ok));
  t.after(() => {
    for (const c of open) c.destroy();
    return new Promise<void>((ok) => server.close(() => ok()));
  });
}

const unreached = (promise: Promise<string>) =>
  promise.then(
    (line) => assert.fail(`expected Unreached, got the line ${line}`),
    (error: unknown) => {
      assert.ok(error instanceof Unreached, String(error));
      return error;
    },
  );

test("this node hands out the pipe handles, so a worker's call needs no net", () => {
  assert.ok(pipeHandles(), "Node 22 and 24 keep pipe_wrap and stream_wrap behind process.binding");
});

for (const { name, over } of TRANSPORTS) {
  const opts = (waitMs = 5_000): LineOptions => ({ waitMs, ...(over ? { over } : {}) });

  test(`${name}: the first reply line comes back whole however its bytes arrive, and a 4 MiB request arrives whole`, async (t) => {
    const dir = tempDir(t);
    const socket = join(dir, "w1-1.sock");
    await serve(t, socket, (c) => {
      const chunks: Buffer[] = [];
      c.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        const got = Buffer.concat(chunks);
        if (got.at(-1) !== 0x0a) return;
        const reply = Buffer.from(
          `{"bytes":${got.length},"sha":"${createHash("sha256").update(got).digest("hex")}","word":"café"}\n{"second":1}\n`,
        );
        const cut = reply.indexOf("é") + 1; // inside the two bytes of é
        c.write(reply.subarray(0, cut));
        setTimeout(() => c.write(reply.subarray(cut, cut + 3)), 20);
        setTimeout(() => c.end(reply.subarray(cut + 3)), 40);
      });
    });
    const request = `${JSON.stringify({ call: "done", body: "ü".repeat(2 * 1024 * 1024) })}\n`;
    const line = await exchangeLine(socket, request, opts());
    const sent = Buffer.from(request);
    assert.deepEqual(JSON.parse(line), {
      bytes: sent.length,
      sha: createHash("sha256").update(sent).digest("hex"),
      word: "café",
    });
  });

  test(`${name}: no socket at the path, or a socket file nobody listens on, is an Unreached with no socket`, async (t) => {
    const dir = tempDir(t);
    const missing = await unreached(exchangeLine(join(dir, "none.sock"), "{}\n", opts()));
    assert.deepEqual([missing.reason, missing.noSocket], ["ENOENT", true]);
    // A door SIGKILLed leaves its socket file behind with nothing listening.
    const stale = join(dir, "stale.sock");
    const door = spawn(process.execPath, ["-e", `require("net").createServer().listen(${JSON.stringify(stale)})`]);
    while (!existsSync(stale)) await new Promise((r) => setTimeout(r, 10));
    door.kill("SIGKILL");
    await new Promise((r) => door.once("exit", r));
    const refused = await unreached(exchangeLine(stale, "{}\n", opts()));
    assert.deepEqual([refused.reason, refused.noSocket], ["ECONNREFUSED", true]);
  });

  test(`${name}: a door that hangs up without a reply, or never answers, is a named Unreached, never a hang`, async (t) => {
    const dir = tempDir(t);
    const rude = join(dir, "rude.sock");
    await serve(t, rude, (c) => c.on("data", () => c.end('{"partial":')));
    const closed = await unreached(exchangeLine(rude, "{}\n", opts()));
    assert.deepEqual([closed.reason, closed.noSocket], ["the door closed the connection before replying", false]);
    const silent = join(dir, "silent.sock");
    await serve(t, silent, () => {});
    const started = Date.now();
    const waited = await unreached(exchangeLine(silent, "{}\n", opts(150)));
    assert.deepEqual([waited.reason, waited.noSocket], ["no reply within 150 ms", false]);
    assert.ok(Date.now() - started >= 140, "it waited its time");
  });

  test(`${name}: a background long-poll keeps no finished process alive`, async (t) => {
    const dir = tempDir(t);
    const socket = join(dir, "poll.sock");
    let polls = 0;
    await serve(t, socket, () => polls++);
    const script = `import(${JSON.stringify(LINE_MODULE)}).then(({ exchangeLine }) => {
      exchangeLine(${JSON.stringify(socket)}, "{}\\n", { waitMs: 60000, background: true${over ? ', over: "net"' : ""} });
      setTimeout(() => {}, 50);
    })`;
    const child = await nodeAsync({ env: process.env, cwd: dir }, "-e", script);
    assert.equal(child.code, 0, child.stderr);
    assert.equal(child.signal, null, "it ended on its own, long before the poll's 60 s");
    assert.equal(polls, 1, "the poll did connect");
  });
}

test("where node would warn about the pipe handles (--pending-deprecation), the line goes over net and nothing is printed", async (t) => {
  const dir = tempDir(t);
  const socket = join(dir, "w1-1.sock");
  await serve(t, socket, (c) => c.on("data", () => c.end('{"ok":true}\n')));
  const script = `import(${JSON.stringify(LINE_MODULE)}).then(async ({ exchangeLine, pipeHandles }) => {
    const line = await exchangeLine(${JSON.stringify(socket)}, "{}\\n", { waitMs: 5000 });
    console.log(JSON.stringify({ line, pipe: pipeHandles() !== undefined, net: process.moduleLoadList.includes("NativeModule net") }));
  })`;
  for (const how of [{ args: ["--pending-deprecation"] }, { env: { NODE_OPTIONS: "--pending-deprecation" } }]) {
    const child = await nodeAsync({ env: { ...process.env, ...how.env }, cwd: dir }, ...(how.args ?? []), "-e", script);
    assert.equal(child.code, 0, child.stderr);
    assert.equal(child.stderr, "", "no deprecation warning reaches the worker's agent");
    assert.deepEqual(JSON.parse(child.stdout), { line: '{"ok":true}', pipe: false, net: true });
  }
});
