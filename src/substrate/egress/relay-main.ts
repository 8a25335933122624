// Runs inside a contained worker's network namespace: `node relay-main.js <socket> <port> -- <argv…>` listens on
// 127.0.0.1:<port>, relays each connection to the door's egress socket after one line naming the worker, runs the argv.

import { spawn } from "node:child_process";
import { connect, createServer, type Socket } from "node:net";
import { constants } from "node:os";

const [socket, portText, dashes, ...argv] = process.argv.slice(2);
const port = Number(portText);
if (!socket || !Number.isInteger(port) || dashes !== "--" || argv.length === 0) {
  process.stderr.write(
    "usage: relay-main.js <egress socket> <port> -- <command> [args…]   (started by Docket's sandbox)\n",
  );
  process.exit(2);
}

// The worker's own identity, from the environment its launch wrapper loaded; the door checks it against the ledger.
const hello = `${JSON.stringify({
  worker: process.env.DOCKET_WORKER_ID ?? "",
  generation: Number(process.env.DOCKET_GENERATION),
  token: process.env.DOCKET_RUN_TOKEN ?? "",
})}\n`;

/** The door may still be starting when the agent's first request comes: its socket is waited for, bounded. */
const WAIT_FOR_DOOR_MS = 20_000;

/** The proxy's first bytes once it knows the worker (proxy.ts): before them, a closed connection is tried again. */
const ACK = Buffer.from("ok\n");

/**
 * Relays one client once the door said it knows the worker. A forwarded socket (a host's) accepts even while the door
 * behind it is down and then closes, so the client's bytes are held until the ack and the door is asked again.
 */
function toDoor(client: Socket, since = Date.now()): void {
  const door = connect(socket);
  let head = Buffer.alloc(0);
  let answered = false;
  const stop = () => door.destroy();
  client.once("close", stop);
  door.once("connect", () => door.write(hello));
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    if (head.length < ACK.length && ACK.subarray(0, head.length).equals(head)) return;
    answered = true;
    door.off("data", onData);
    const acked = head.subarray(0, ACK.length).equals(ACK);
    // Anything but the ack (a refusal of the worker) goes to the agent as it came, and nothing of the agent's follows.
    const rest = acked ? head.subarray(ACK.length) : head;
    if (rest.length > 0) client.write(rest);
    if (acked) client.pipe(door);
    door.pipe(client);
    client.resume();
  };
  door.on("data", onData);
  door.on("error", () => {
    if (answered) client.destroy();
  });
  door.on("close", () => {
    if (answered) return;
    client.off("close", stop);
    if (Date.now() - since < WAIT_FOR_DOOR_MS && !client.destroyed) setTimeout(() => toDoor(client, since), 100);
    else client.destroy();
  });
}

const server = createServer((client) => {
  client.pause();
  client.on("error", () => client.destroy());
  toDoor(client);
});

server.on("error", (error) => {
  process.stderr.write(`docket egress relay: cannot listen on 127.0.0.1:${port}: ${error.message}\n`);
  process.exit(125);
});

server.listen(port, "127.0.0.1", () => {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: "inherit" });
  // Ctrl-C in the pane reaches the agent itself (same process group); a hangup or stop is passed on.
  process.on("SIGINT", () => {});
  for (const signal of ["SIGHUP", "SIGTERM", "SIGQUIT"] as const) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    process.stderr.write(`docket egress relay: cannot run ${argv[0]}: ${error.message}\n`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
});
