// `docket door supervise <dir>`: the door's supervisor, one per home, outside every sandbox; no engine, no SQLite.
// It holds one idle connection to the door's control socket: when that closes and the control socket is still there,
// the door died (a door that stops itself removes it first) and another is started at once; else it ends too.

import { createConnection, createServer, type Server } from "node:net";
import {
  doorPathsOfDir,
  prepareDoorDir,
  probeSocket,
  publishSupervisor,
  releaseDoorStart,
  removeSocketIfInode,
  retireSupervisor,
  socketInode,
  startDoorProcess,
  type DoorChild,
  type DoorPaths,
} from "../../engine/door/supervision.js";
import { listenClaiming } from "./listen.js";

/** How long a started door may take to answer before it counts as a failed start. */
const START_WAIT_MS = 20_000;
/** Starts that never served, in a row, before the supervisor gives up (doctor then reports the door). */
const MAX_FAILED_STARTS = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => process.stderr.write(`supervisor ${process.pid}: ${line}\n`);

export async function supervise(doorDir: string): Promise<number> {
  const paths = doorPathsOfDir(doorDir);
  prepareDoorDir(paths);
  // A second supervisor was started for a door while this one had none up (its door stopping itself): keep one up. A
  // want that comes while a door serves is met by that door, so it cannot outlive it and undo a later stop.
  const wanted = { door: false, holding: false };
  const server = createServer((conn) => {
    conn.on("error", () => {});
    conn.once("data", () => {
      if (!wanted.holding) wanted.door = true;
      conn.end("ok\n");
    });
  });
  const ino = await claimOrHandOver(server, paths);
  // Whoever started this supervisor claimed the start: it is spent now that one supervisor holds the socket. Held
  // longer, a supervisor killed before its door served would keep the next human command from reviving it.
  releaseDoorStart(paths.controlDir);
  if (ino === undefined) return 0;
  publishSupervisor(paths, { pid: process.pid, startedAt: new Date().toISOString() });
  say("supervising");
  const stop = () => {
    server.close();
    removeSocketIfInode(paths.supervisor, ino);
    retireSupervisor(paths, process.pid);
  };
  process.on("SIGHUP", () => {}); // outlives the terminal that started it
  process.on("SIGTERM", () => {
    stop();
    process.exit(0);
  });
  await keepDoorUp(paths, ino, wanted);
  stop();
  return 0;
}

/**
 * Claims the supervisor socket; when a live supervisor holds it, tells that one a door is wanted and gives way.
 * If it stopped meanwhile (it ends when its door stopped itself), claims again.
 */
async function claimOrHandOver(server: Server, paths: DoorPaths): Promise<number | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const ino = await listenClaiming(server, paths.controlDir, paths.supervisor);
    if (ino !== undefined) return ino;
    if (await handOver(paths.supervisor)) return undefined;
  }
  return undefined;
}

function handOver(socket: string): Promise<boolean> {
  return new Promise((done) => {
    const conn = createConnection(socket, () => conn.write("door\n"));
    conn.setTimeout(5_000, () => conn.destroy());
    conn.on("data", () => {
      conn.destroy();
      done(true);
    });
    conn.on("error", () => done(false));
    conn.on("close", () => done(false));
  });
}

/** Holds the door up until it stops itself, the home goes away, or starting it keeps failing. */
async function keepDoorUp(paths: DoorPaths, ino: number, wanted: { door: boolean; holding: boolean }): Promise<void> {
  let served = false;
  let failures = 0;
  for (;;) {
    if (socketInode(paths.supervisor) !== ino) return; // the home went away, or another supervisor took over
    const since = Date.now();
    const held = await holdControl(paths.control, () => {
      served = true;
      failures = 0;
      wanted.door = false;
      wanted.holding = true;
    });
    wanted.holding = false;
    if (held === "held") {
      // A door that accepts and drops at once (full of connections) is alive: look again without spinning.
      if (Date.now() - since < 1_000) await sleep(200);
      continue;
    }
    if (held === "busy") {
      await sleep(200);
      continue;
    }
    const stoppedItself = socketInode(paths.control) === undefined;
    if (stoppedItself && served && !wanted.door) return;
    wanted.door = false;
    if (failures >= MAX_FAILED_STARTS) {
      say(`the door did not come up after ${failures} starts; giving up (\`docket doctor\` reports it)`);
      return;
    }
    const child = startDoorProcess(paths.dir, process.env);
    say(`${stoppedItself && !served ? "started" : "the door was gone; started another,"} pid ${child.pid ?? "?"}`);
    if (await answersWithin(paths.control, child)) continue;
    failures++;
    await sleep(Math.min(250 * 2 ** failures, 5_000));
  }
}

/** Connects to the door's control socket and holds the connection until it closes: "held" once it was open. */
function holdControl(socket: string, opened: () => void): Promise<"held" | "refused" | "busy"> {
  return new Promise((done) => {
    let open = false;
    const conn = createConnection(socket, () => {
      open = true;
      opened();
    });
    conn.on("error", (error: NodeJS.ErrnoException) => {
      if (!open) done(error.code === "ECONNREFUSED" || error.code === "ENOENT" ? "refused" : "busy");
    });
    conn.on("data", () => {}); // it never speaks to us; read so nothing piles up
    conn.on("close", () => {
      if (open) done("held");
    });
  });
}

/** True once the control socket answers (this start, or another door that won the home); false when it never did. */
async function answersWithin(socket: string, child: DoorChild): Promise<boolean> {
  let ended = false;
  void child.exited.then(() => (ended = true));
  for (const until = Date.now() + START_WAIT_MS; Date.now() < until; ) {
    if ((await probeSocket(socket, 1_000)) === "answers") return true;
    if (ended) return (await probeSocket(socket, 1_000)) === "answers";
    await sleep(50);
  }
  return false;
}
