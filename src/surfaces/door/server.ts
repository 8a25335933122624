// The door process: a control socket in the human side's directory (one door per home), an explain socket and one
// 0600 socket per served worker generation in the directory sandboxes see, and one watcher of the ledger that opens
// and closes sockets and answers inbox long-polls (pushed, not polled by workers).

import { createServer, type Socket } from "node:net";
import { dirname } from "node:path";
import { isDoorCall } from "../../domain/door.js";
import { fenced, isDocketError } from "../../domain/errors.js";
import { isWorkCall, noteAccepted, noteRefusal } from "../../engine/workers/refusals.js";
import type { WorkerIdentity } from "../../domain/workers/identity.js";
import type { EngineContext } from "../../engine/context.js";
import { openEngine } from "../../engine/open.js";
import { startNotifyDispatcher } from "../../engine/talk/notify-dispatch.js";
import { startFleetWatch } from "../../engine/workers/fleet-watch.js";
import {
  openDoorHome,
  removeSocket,
  removeSocketIfInode,
  socketFiles,
  type DoorHome,
} from "../../engine/door/serve.js";
import { explainForWorker, runCall } from "./calls.js";
import { createControlCall, createExplainCall } from "./control.js";
import { createInboxWaiters, type InboxWaiters } from "./inbox-waiters.js";
import { serveLines, type Reply } from "./lines.js";
import { listenClaiming, listenReplacing } from "./listen.js";
import { watchLedger } from "./ledger-watch.js";
import { createWorkerSockets, type Served } from "./worker-sockets.js";
import { startEgress } from "./egress.js";

export interface RunningDoor {
  closed: Promise<void>;
}

/** Starts the door for the home whose door directory is `dir`; undefined when another door already serves it. */
export async function startDoor(dir: string): Promise<RunningDoor | undefined> {
  const home: DoorHome = openDoorHome(dir, process.env);
  const { paths } = home;
  const base = openEngine({ env: home.env, cwd: dirname(paths.dir), afterCommit: afterReply });
  const contexts = new Map<string, EngineContext>(); // one engine per project the served workers belong to
  const ctxFor = (projectRoot: string): EngineContext => contextFor(contexts, home.env, projectRoot);
  let stopping = false;
  const startedAt = new Date().toISOString();
  const inbox = createInboxWaiters(base);
  const sockets = createWorkerSockets({
    paths,
    base,
    startedAt,
    limits: base.config().door,
    handle: (s, request) => workerCall({ ctxFor, inbox, sync: () => sockets.sync() }, s, request),
    explain: (error) => explainForWorker(error, home.env),
  });

  const controlCall = createControlCall({ paths, base, sockets, startedAt, shutdown });
  const controlConns = new Set<Socket>(); // the supervisor holds one open: closed at shutdown, so this process can end
  const control = createServer((conn) => {
    controlConns.add(conn);
    conn.on("close", () => controlConns.delete(conn));
    serveLines(conn, controlCall);
  });
  const controlIno = await listenClaiming(control, paths.controlDir, paths.control);
  if (controlIno === undefined) {
    base.close();
    return undefined; // another door serves this home
  }
  // Every socket in the workers' directory belongs to a door that is gone: ours are made fresh below.
  for (const name of socketFiles(paths)) removeSocket(paths.socket(name));
  const explain = createServer((conn) => serveLines(conn, createExplainCall({ paths, base, sockets })));
  const explainIno = await listenReplacing(explain, paths.dir, paths.explain);

  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const watch = watchLedger({ base, paths, controlIno, sockets, inbox, shutdown });
  // The door is the long-lived process while workers run: it sends due notifications and stops workers at their
  // budgets on its own timer, with no Docket command running.
  const notify = startNotifyDispatcher(base, {
    holder: `door:${process.pid}`,
    onError: (error) => process.stderr.write(`door: notifications: ${error.message}\n`),
  });

  const egress = await startEgress(base, paths);

  // And it watches the fleet: a pane that died unreported, an agent stopped on an error, a stuck worker.
  const fleet = startFleetWatch(base, {
    change: () => void sockets.sync(),
    error: (error) => process.stderr.write(`door: fleet watch: ${error.message}\n`),
  });

  async function shutdown(): Promise<void> {
    if (stopping) return;
    stopping = true;
    // First, in the same turn as the decision to stop: from here on no one takes this door for a running one.
    removeSocketIfInode(paths.control, controlIno);
    control.close();
    egress.stop();
    watch.stop();
    fleet.stop();
    await notify.stop();
    inbox.release(watch.version());
    for (const name of [...sockets.served.keys()]) sockets.close(name);
    explain.close();
    removeSocketIfInode(paths.explain, explainIno);
    for (const conn of controlConns) conn.destroy();
    for (const ctx of contexts.values()) ctx.close();
    base.close();
    resolveClosed();
  }

  process.on("SIGTERM", () => void shutdown());
  process.on("SIGINT", () => void shutdown());
  process.on("SIGHUP", () => {}); // outlives the terminal that started it
  process.stderr.on("error", () => {}); // door.log on a full disk: a log line lost, never the door
  await sockets.sync();
  return { closed };
}

function contextFor(contexts: Map<string, EngineContext>, env: NodeJS.ProcessEnv, projectRoot: string): EngineContext {
  let ctx = contexts.get(projectRoot);
  if (!ctx) contexts.set(projectRoot, (ctx = openEngine({ env, cwd: projectRoot, afterCommit: afterReply })));
  return ctx;
}

/**
 * A call's effects (status.json, the journal: projections for other readers) run once its reply is written (a reply
 * is written in the same turn as its call ran), so a worker never waits on their file writes and fsyncs.
 */
function afterReply(perform: () => void): void {
  setImmediate(() => {
    try {
      perform();
    } catch {
      // The engine closed first (the door stopping): the effects stay in the outbox for the next command to perform.
    }
  });
}

interface WorkerCallDeps {
  ctxFor(projectRoot: string): EngineContext;
  inbox: InboxWaiters;
  sync(): Promise<void>;
}

/** One request on a worker's socket: refused unless it names the socket's own generation, then run on its project. */
async function workerCall({ ctxFor, inbox, sync }: WorkerCallDeps, s: Served, request: Reply): Promise<Reply> {
  if (request.worker !== s.worker || request.generation !== s.generation) {
    throw fenced(
      "door-wrong-socket",
      `this socket serves ${s.worker} generation ${s.generation}, ` +
        `not ${String(request.worker)} generation ${String(request.generation)}; the call is refused`,
    );
  }
  const runToken = typeof request.token === "string" ? request.token : "";
  const who: WorkerIdentity = { worker: s.worker, generation: s.generation, runToken };
  const call = request.call;
  const given = request.args;
  const args = typeof given === "object" && given !== null ? (given as Record<string, unknown>) : {};
  if (!isDoorCall(call)) throw fenced("door-unknown-call", `the door has no call ${JSON.stringify(call)}`);
  if (call === "inbox-wait") return inbox.wait(s.worker, args);
  const ctx = ctxFor(s.projectRoot);
  let result: unknown;
  try {
    result = await runCall(ctx, who, call, args);
  } catch (error) {
    if (isWorkCall(call) && isDocketError(error) && error.category !== "fenced")
      noteRefusal(ctx, who, call, error.message);
    throw error;
  }
  if (call === "exited") void sync();
  const refusedTool = mcpRefusal(call, args, result);
  if (refusedTool) noteRefusal(ctx, who, refusedTool.tool, refusedTool.text);
  else if (isWorkCall(call) || call === "mcp-call") noteAccepted(ctx, who);
  return { ok: true, result };
}

/** An MCP tool call the engine refused comes back as an error result (the agent reads it), not as a thrown error. */
function mcpRefusal(
  call: string,
  args: Record<string, unknown>,
  result: unknown,
): { tool: string; text: string } | undefined {
  if (call !== "mcp-call") return undefined;
  const r = result as { isError?: unknown; content?: { text?: unknown }[] } | undefined;
  if (r?.isError !== true) return undefined;
  const name = (args.request as { name?: unknown } | undefined)?.name;
  const text = (r.content ?? []).map((c) => (typeof c.text === "string" ? c.text : "")).join(" ");
  return { tool: typeof name === "string" ? name : "tool", text };
}
