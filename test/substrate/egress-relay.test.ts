// The in-sandbox relay as a real process beside a real unix socket: a socket that accepts and closes before the door's
// `ok` (a host's forwarded socket while the door here is down) is tried again with the client's bytes held; a door that
// refuses the worker has its answer passed to the agent as it came, and nothing of the agent's is sent after it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { connect, createServer, type Socket } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../support/sshd.js";
import { tempDir } from "../support/temp.js";
import { waitFor } from "../support/wait.js";

const RELAY = resolve(fileURLToPath(import.meta.url), "../../../src/substrate/egress/relay-main.js");

/** Starts the relay on a free port with a command that lives until the test ends; its port once it listens. */
async function relay(t: { after(fn: () => void): void }, socket: string): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [RELAY, socket, String(port), "--", "sleep", "60"], {
    stdio: "ignore",
    env: { ...process.env, DOCKET_WORKER_ID: "w1", DOCKET_GENERATION: "1", DOCKET_RUN_TOKEN: "tok" },
  });
  t.after(() => void child.kill("SIGTERM"));
  await waitFor(
    "the relay listening",
    () =>
      new Promise<boolean>((ok) => {
        const c = connect(port, "127.0.0.1");
        c.on("connect", () => {
          c.destroy();
          ok(true);
        });
        c.on("error", () => ok(false));
      }),
    10_000,
    50,
  );
  return port;
}

/** Sends `text` through the relay and reads until it closes. */
function through(port: number, text: string): Promise<string> {
  return new Promise((ok, fail) => {
    const c = connect(port, "127.0.0.1");
    let got = "";
    c.on("data", (d) => void (got += d.toString()));
    c.on("error", fail);
    c.on("close", () => ok(got));
    c.write(text);
  });
}

test("the relay holds a client's bytes until the door says ok, asking again when the socket closes first", async (t) => {
  const socket = join(tempDir(t, "docket-relay-"), "egress.sock");
  const hellos: string[] = [];
  let toDrop = 0;
  let dropped = 0;
  const door = createServer((conn: Socket) => {
    conn.on("error", () => conn.destroy()); // the relay's readiness probe hangs up at once
    // Closed unanswered, as ssh does with a forwarded connection while nothing listens behind its forward.
    if (dropped < toDrop) {
      dropped++;
      return void conn.destroy();
    }
    conn.once("data", (d) => {
      const text = d.toString();
      const nl = text.indexOf("\n");
      hellos.push(text.slice(0, nl));
      conn.write("ok\n");
      if (text.length > nl + 1) conn.end(`echo:${text.slice(nl + 1)}`);
      else conn.once("data", (more) => conn.end(`echo:${more}`));
    });
  });
  await new Promise<void>((ok) => door.listen(socket, ok));
  t.after(() => void door.close());
  const port = await relay(t, socket);
  toDrop = 3;
  const reply = await through(port, "ping");
  assert.equal(reply, "echo:ping");
  assert.equal(dropped, 3, "the closed connections were tried again");
  assert.deepEqual(JSON.parse(hellos.at(-1)!), { worker: "w1", generation: 1, token: "tok" });
});

test("a door that refuses the worker: its answer reaches the agent as it came, nothing relayed after it", async (t) => {
  const socket = join(tempDir(t, "docket-relay-"), "egress.sock");
  const door = createServer((conn) => {
    conn.on("error", () => conn.destroy()); // the relay's readiness probe hangs up at once
    conn.once("data", () => conn.end("HTTP/1.1 407 Who\r\n\r\nunknown worker\n"));
  });
  await new Promise<void>((ok) => door.listen(socket, ok));
  t.after(() => void door.close());
  const port = await relay(t, socket);
  assert.equal(await through(port, "CONNECT x:443 HTTP/1.1\r\n\r\n"), "HTTP/1.1 407 Who\r\n\r\nunknown worker\n");
});
