// The door process: a control socket (one door per home), one 0600 socket per served worker generation, and one
// watcher of the ledger that opens and closes sockets and answers inbox long-polls (pushed, not polled by workers).

import { createServer, type Server, type Socket } from "node:net";
import { dirname } from "node:path";
import { CONTROL_SOCKET, doorSocketName, isDoorCall } from "../../domain/door.js";
import { DocketError, errorShape, fenced, isDocketError } from "../../domain/errors.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { EngineContext } from "../../engine/context.js";
import { openEngine } from "../../engine/open.js";
import { startNotifyDispatcher } from "../../engine/talk/notify-dispatch.js";
import { explainUnserved, openDoorHome, publishDoorState, releaseDoorStart, removeSocket, removeSocketIfInode, servedBy, socketFiles, socketInode, type DoorHome } from "../../engine/door/serve.js";
import { inboxHasQueued, ledgerVersion } from "../../engine/talk/inbox.js";
import { runCall } from "./calls.js";
import { listenClaiming, listenReplacing } from "./listen.js";

/** How often the door looks at the ledger's data_version (one cheap pragma for every worker together). */
export const WATCH_MS = 100;
/** With no generation to serve and no connection open for this long, the door stops. */
export const IDLE_STOP_MS = 10_000;
const MAX_LINE = 64 * 1024 * 1024;
const LONG_POLL_MAX_MS = 25_000;

type Reply = Record<string, unknown>;

interface Served {
  worker: string;
  generation: number;
  projectRoot: string;
  server: Server;
  ino?: number;
}

interface Waiter {
  worker: string;
  after: number;
  answer(reply: Reply): void;
}

const failure = (error: unknown): Reply => {
  const e = isDocketError(error) ? error : new DocketError("internal", "door-internal", error instanceof Error ? error.message : String(error));
  return { ok: false, error: { category: e.category, ...errorShape(e) } };
};

/** Reads NDJSON requests from one connection and writes one reply line per request, in order. */
function serveLines(conn: Socket, handle: (request: Reply) => Promise<Reply>): void {
  let buffer = "";
  let chain = Promise.resolve();
  conn.setEncoding("utf8");
  conn.on("error", () => {}); // a client that went away mid-reply: its retry gets the stored result
  conn.on("data", (chunk: string) => {
    buffer += chunk;
    if (buffer.length > MAX_LINE) return void conn.destroy();
    for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      chain = chain.then(async () => {
        let request: Reply;
        try {
          request = JSON.parse(line) as Reply;
        } catch {
          request = {};
        }
        const reply = await handle(typeof request === "object" && request !== null ? request : {}).catch(failure);
        if (!conn.destroyed) conn.write(`${JSON.stringify(reply)}\n`);
      });
    }
  });
}

export interface RunningDoor {
  closed: Promise<void>;
}

/** Starts the door for the home whose door directory is `dir`; undefined when another door already serves it. */
export async function startDoor(dir: string): Promise<RunningDoor | undefined> {
  const home: DoorHome = openDoorHome(dir, process.env);
  const { paths } = home;
  const base = openEngine({ env: home.env, cwd: dirname(paths.dir) });
  const contexts = new Map<string, EngineContext>();
  const ctxFor = (projectRoot: string): EngineContext => {
    let ctx = contexts.get(projectRoot);
    if (!ctx) contexts.set(projectRoot, (ctx = openEngine({ env: home.env, cwd: projectRoot })));
    return ctx;
  };
  const served = new Map<string, Served>();
  const waiters = new Set<Waiter>();
  let connections = 0;
  let stopping = false;
  const startedAt = new Date().toISOString();

  const control = createServer((conn) => serveLines(conn, controlCall));
  const controlIno = await listenClaiming(control, paths.dir, paths.control);
  if (controlIno === undefined) {
    base.close();
    releaseDoorStart(paths.dir);
    return undefined; // another door serves this home
  }
  // Any other socket here belongs to a door that is gone: ours are made fresh below.
  for (const name of socketFiles(paths)) if (name !== CONTROL_SOCKET) removeSocket(paths.socket(name));

  function publish(): void {
    publishDoorState(paths, {
      pid: process.pid,
      startedAt,
      sockets: [...served.entries()].map(([name, s]) => ({ name, worker: s.worker, generation: s.generation })),
    });
  }

  async function open(name: string, s: { worker: string; generation: number; projectRoot: string }): Promise<void> {
    const server = createServer((conn) => {
      connections++;
      conn.on("close", () => connections--);
      serveLines(conn, (request) => workerCall(entry, request));
    });
    const entry: Served = { ...s, server };
    served.set(name, entry);
    try {
      entry.ino = await listenReplacing(server, paths.dir, paths.socket(name));
    } catch (error) {
      served.delete(name);
      server.close();
      process.stderr.write(`door: cannot listen for ${name}: ${(error as Error).message}\n`);
    }
  }

  function close(name: string): void {
    const s = served.get(name);
    if (!s) return;
    served.delete(name);
    s.server.close();
    removeSocketIfInode(paths.socket(name), s.ino);
  }

  let syncing: Promise<void> | undefined;
  function sync(): Promise<void> {
    syncing ??= (async () => {
      try {
        const want = new Map(servedBy(base).map((s) => [doorSocketName(s.worker, s.generation), s]));
        for (const name of [...served.keys()]) if (!want.has(name)) close(name);
        await Promise.all([...want].filter(([name]) => !served.has(name)).map(([name, s]) => open(name, s)));
        publish();
      } finally {
        syncing = undefined;
      }
    })();
    return syncing;
  }

  async function workerCall(s: Served, request: Reply): Promise<Reply> {
    if (request.worker !== s.worker || request.generation !== s.generation) {
      throw fenced("door-wrong-socket", `this socket serves ${s.worker} generation ${s.generation}, not ${String(request.worker)} generation ${String(request.generation)}; the call is refused`);
    }
    const who: WorkerIdentity = { worker: s.worker, generation: s.generation, runToken: typeof request.token === "string" ? request.token : "" };
    const call = request.call;
    const args = typeof request.args === "object" && request.args !== null ? (request.args as Record<string, unknown>) : {};
    if (!isDoorCall(call)) throw fenced("door-unknown-call", `the door has no call ${JSON.stringify(call)}`);
    if (call === "inbox-wait") return inboxWait(s, args);
    const result = runCall(ctxFor(s.projectRoot), who, call, args);
    if (call === "exited") void sync();
    return { ok: true, result };
  }

  function inboxWait(s: Served, args: Record<string, unknown>): Promise<Reply> {
    const after = typeof args.after === "number" ? args.after : -1;
    const wait = Math.min(typeof args.timeoutMs === "number" && args.timeoutMs >= 0 ? args.timeoutMs : LONG_POLL_MAX_MS, LONG_POLL_MAX_MS);
    const version = ledgerVersion(base);
    const queued = inboxHasQueued(base, s.worker);
    if ((queued && version !== after) || wait === 0) return Promise.resolve({ ok: true, result: { version, queued } });
    return new Promise((done) => {
      const waiter: Waiter = {
        worker: s.worker,
        after,
        answer: (reply) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          done(reply);
        },
      };
      const timer = setTimeout(() => waiter.answer({ ok: true, result: { version: ledgerVersion(base), queued: inboxHasQueued(base, s.worker) } }), wait);
      waiters.add(waiter);
    });
  }

  async function controlCall(request: Reply): Promise<Reply> {
    switch (request.call) {
      case "explain": {
        const worker = String(request.worker);
        const generation = Number(request.generation);
        const name = doorSocketName(worker, generation);
        const mine = served.get(name);
        if (mine && socketInode(paths.socket(name)) !== mine.ino) close(name); // its file was removed: listen again
        await sync();
        if (!served.has(name)) await sync(); // the sync it joined may have begun before the close above
        if (served.has(name)) return { ok: true, retry: true };
        const who = { worker, generation, runToken: typeof request.token === "string" ? request.token : "" };
        // A replaced generation's wrapper records its exit on its own launch row (it changes nothing else): allowed here.
        if (typeof request.exited === "object" && request.exited !== null) return { ok: true, result: runCall(base, who, "exited", request.exited as Record<string, unknown>) };
        explainUnserved(base, who);
        return { ok: true, retry: true };
      }
      case "sync":
        await sync();
        return { ok: true, result: { pid: process.pid, sockets: [...served.keys()] } };
      case "stop":
        setImmediate(() => void shutdown());
        return { ok: true, result: { pid: process.pid } };
      default:
        return { ok: true, result: { pid: process.pid, startedAt, sockets: [...served.keys()], connections } };
    }
  }

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let lastVersion = ledgerVersion(base);
  let idleSince: number | undefined;

  async function tick(): Promise<void> {
    if (socketInode(paths.control) !== controlIno) return shutdown(); // the home went away, or another door took it over
    const version = ledgerVersion(base);
    if (version !== lastVersion) {
      lastVersion = version;
      await sync();
      for (const w of [...waiters]) if (w.after !== version && inboxHasQueued(base, w.worker)) w.answer({ ok: true, result: { version, queued: true } });
    }
    if (served.size === 0 && connections === 0 && waiters.size === 0) {
      idleSince ??= Date.now();
      if (Date.now() - idleSince > IDLE_STOP_MS) return shutdown();
    } else idleSince = undefined;
  }

  const timer = setInterval(() => void tick().catch((error) => process.stderr.write(`door: ${(error as Error).message}\n`)), WATCH_MS);
  // The door is the long-lived process while workers run: it sends due notifications and stops workers at their
  // budgets on its own timer (issue 29), with no Docket command running.
  const notify = startNotifyDispatcher(base, { holder: `door:${process.pid}`, onError: (error) => process.stderr.write(`door: notifications: ${error.message}\n`) });

  async function shutdown(): Promise<void> {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    await notify.stop();
    for (const w of [...waiters]) w.answer({ ok: true, result: { version: lastVersion, queued: false } });
    for (const name of [...served.keys()]) close(name);
    control.close();
    removeSocketIfInode(paths.control, controlIno);
    for (const ctx of contexts.values()) ctx.close();
    base.close();
    resolveClosed();
  }

  process.on("SIGTERM", () => void shutdown());
  process.on("SIGINT", () => void shutdown());
  process.on("SIGHUP", () => {}); // outlives the terminal that started it
  await sync();
  releaseDoorStart(paths.dir);
  return { closed };
}
