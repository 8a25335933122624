// The door's transport over node:net: the reply line whole, the request byte for byte, and a named Unreached for every
// way a door can fail to answer — against real Unix sockets in a temp dir and a real node process.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { exchangeLine, Unreached } from "../../../src/surfaces/shared/door-line.js";
import { nodeAsync } from "../../support/docket-cli.js";
import { tempDir } from "../../support/temp.js";

const LINE_MODULE = new URL("../../../src/surfaces/shared/door-line.js", import.meta.url).href;

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

test("the first reply line comes back whole however its bytes arrive, and a 4 MiB request arrives whole", async (t) => {
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
  const line = await exchangeLine(socket, request, { waitMs: 5_000 });
  const sent = Buffer.from(request);
  assert.deepEqual(JSON.parse(line), {
    bytes: sent.length,
    sha: createHash("sha256").update(sent).digest("hex"),
    word: "café",
  });
});

test("no socket at the path, or a socket file nobody listens on, is an Unreached with no socket", async (t) => {
  const dir = tempDir(t);
  const missing = await unreached(exchangeLine(join(dir, "none.sock"), "{}\n", { waitMs: 5_000 }));
  assert.deepEqual([missing.reason, missing.noSocket], ["ENOENT", true]);
  // A door SIGKILLed leaves its socket file behind with nothing listening.
  const stale = join(dir, "stale.sock");
  const door = spawn(process.execPath, ["-e", `require("net").createServer().listen(${JSON.stringify(stale)})`]);
  while (!existsSync(stale)) await new Promise((r) => setTimeout(r, 10));
  door.kill("SIGKILL");
  await new Promise((r) => door.once("exit", r));
  const refused = await unreached(exchangeLine(stale, "{}\n", { waitMs: 5_000 }));
  assert.deepEqual([refused.reason, refused.noSocket], ["ECONNREFUSED", true]);
});

test("a door that hangs up without a reply, or never answers, is a named Unreached, never a hang", async (t) => {
  const dir = tempDir(t);
  const rude = join(dir, "rude.sock");
  await serve(t, rude, (c) => c.on("data", () => c.end('{"partial":')));
  const closed = await unreached(exchangeLine(rude, "{}\n", { waitMs: 5_000 }));
  assert.deepEqual([closed.reason, closed.noSocket], ["the door closed the connection before replying", false]);
  const silent = join(dir, "silent.sock");
  await serve(t, silent, () => {});
  const started = Date.now();
  const waited = await unreached(exchangeLine(silent, "{}\n", { waitMs: 150 }));
  assert.deepEqual([waited.reason, waited.noSocket], ["no reply within 150 ms", false]);
  assert.ok(Date.now() - started >= 140, "it waited its time");
});

test("a background long-poll keeps no finished process alive", async (t) => {
  const dir = tempDir(t);
  const socket = join(dir, "poll.sock");
  let polls = 0;
  await serve(t, socket, () => polls++);
  const script = `import(${JSON.stringify(LINE_MODULE)}).then(({ exchangeLine }) => {
    exchangeLine(${JSON.stringify(socket)}, "{}\\n", { waitMs: 60000, background: true });
    setTimeout(() => {}, 50);
  })`;
  const child = await nodeAsync({ env: process.env, cwd: dir }, "-e", script);
  assert.equal(child.code, 0, child.stderr);
  assert.equal(child.signal, null, "it ended on its own, long before the poll's 60 s");
  assert.equal(polls, 1, "the poll did connect");
});
