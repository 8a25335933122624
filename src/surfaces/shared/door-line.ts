// The transport under the door's client: one request line out, one reply line back, over a generation's Unix socket.
// Over node's own pipe handle where node still hands it out, else over `net` — which costs a cold `docket worker …`
// call node's whole stream family (~6 ms of a ~45 ms process); both give the same reply line or the same Unreached.

import { createRequire } from "node:module";
import { getSystemErrorName } from "node:util";

/** The door could not be reached or did not answer; `noSocket` when nothing listens at that path. */
export class Unreached extends Error {
  constructor(
    readonly reason: string,
    readonly noSocket: boolean,
  ) {
    super(reason);
  }
}

export interface LineOptions {
  /** How long to wait for the reply line before giving up. */
  waitMs: number;
  /** A long-poll: neither the connection nor its timer keeps a finished process alive. */
  background?: boolean;
  /** `net` goes over node's net whatever this node has, as a node without the pipe handles would. */
  over?: "net";
}

/** Sends `line` (one NDJSON request, newline included) and resolves to the first line the door writes back. */
export function exchangeLine(socket: string, line: string, options: LineOptions): Promise<string> {
  const pipe = options.over === "net" ? undefined : pipeHandles();
  return pipe ? overPipe(pipe, socket, line, options) : overNet(socket, line, options);
}

const CLOSED_EARLY = "the door closed the connection before replying";
const unreachedBy = (code: string) => new Unreached(code, code === "ENOENT" || code === "ECONNREFUSED");
const waitedFor = (waitMs: number) => new Unreached(`no reply within ${waitMs} ms`, false);

/** The one connection's bookkeeping both transports share: settle once, stop the timer, close, then report. */
function settleOnce(options: LineOptions, close: () => void, done: (line: string) => void, fail: (e: Error) => void) {
  let settled = false;
  const finish = (fn: () => void) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    close();
    fn();
  };
  const timer = setTimeout(() => finish(() => fail(waitedFor(options.waitMs))), options.waitMs);
  if (options.background) timer.unref();
  return {
    reply: (line: string) => finish(() => done(line)),
    failed: (error: Unreached) => finish(() => fail(error)),
  };
}

/** Collects reply bytes until the first newline; decoding only then, so a character split between reads stays whole. */
function lineCollector(): (chunk: Uint8Array) => string | undefined {
  const chunks: Buffer[] = [];
  return (chunk) => {
    const nl = chunk.indexOf(0x0a);
    chunks.push(Buffer.from(nl === -1 ? chunk : chunk.subarray(0, nl)));
    return nl === -1 ? undefined : Buffer.concat(chunks).toString("utf8");
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Over node's pipe handle: what `net.Socket` itself drives, without the streams around it.

interface StreamReq {
  oncomplete?: (status: number) => void;
  handle?: unknown;
}

interface PipeHandle {
  connect(req: StreamReq, path: string): number;
  writeUtf8String(req: StreamReq, text: string): number;
  readStart(): number;
  onread?: (buffer: ArrayBuffer | undefined) => void;
  close(): void;
  unref(): void;
}

interface PipeHandles {
  Pipe: new (type: number) => PipeHandle;
  PipeConnectWrap: new () => StreamReq;
  WriteWrap: new () => StreamReq;
  SOCKET: number;
  /** Where node leaves each read's byte count (negative: an error, or the end) and its offset in the buffer. */
  state: Int32Array;
  bytes: number;
  offset: number;
}

const UV_EOF = -4095;
let looked = false;
let handles: PipeHandles | undefined;

/**
 * Node's pipe and stream handles, or undefined where this node has none of the shape used here (they are node's
 * internals: `process.binding` is deprecated, kept for compatibility) or would warn about taking them
 * (`--pending-deprecation`). Either way the call goes over `net` instead.
 */
export function pipeHandles(): PipeHandles | undefined {
  if (!looked) {
    looked = true;
    handles = takeHandles();
  }
  return handles;
}

function takeHandles(): PipeHandles | undefined {
  const flags = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
  if (/--pending-deprecation\b/.test(flags) || process.env.NODE_PENDING_DEPRECATION === "1") return undefined;
  try {
    const binding = (process as unknown as { binding(name: string): Record<string, unknown> }).binding;
    const pipe = binding("pipe_wrap");
    const stream = binding("stream_wrap");
    const found = {
      Pipe: pipe.Pipe,
      PipeConnectWrap: pipe.PipeConnectWrap,
      WriteWrap: stream.WriteWrap,
      SOCKET: (pipe.constants as { SOCKET?: unknown } | undefined)?.SOCKET,
      state: stream.streamBaseState,
      bytes: stream.kReadBytesOrError,
      offset: stream.kArrayBufferOffset,
    };
    const shaped =
      typeof found.Pipe === "function" &&
      typeof found.PipeConnectWrap === "function" &&
      typeof found.WriteWrap === "function" &&
      typeof found.SOCKET === "number" &&
      found.state instanceof Int32Array &&
      typeof found.bytes === "number" &&
      typeof found.offset === "number";
    return shaped ? (found as PipeHandles) : undefined;
  } catch {
    return undefined; // no such bindings on this node
  }
}

function overPipe(p: PipeHandles, socket: string, line: string, options: LineOptions): Promise<string> {
  return new Promise((done, fail) => {
    const handle = new p.Pipe(p.SOCKET);
    if (options.background) handle.unref();
    const { reply, failed } = settleOnce(options, () => handle.close(), done, fail);
    const byStatus = (status: number) => failed(unreachedBy(getSystemErrorName(status)));
    const collect = lineCollector();
    handle.onread = (buffer) => {
      const n = p.state[p.bytes]!;
      if (n < 0) return n === UV_EOF ? failed(new Unreached(CLOSED_EARLY, false)) : byStatus(n);
      const whole = buffer && n > 0 ? collect(new Uint8Array(buffer, p.state[p.offset]!, n)) : undefined;
      if (whole !== undefined) reply(whole);
    };
    // Both requests stay referenced here until the connection is done with them.
    const connect = new p.PipeConnectWrap();
    const write = new p.WriteWrap();
    write.handle = handle;
    write.oncomplete = (status) => {
      if (status < 0) byStatus(status); // called only for a write that had to wait
    };
    connect.oncomplete = (status) => {
      if (status < 0) return byStatus(status);
      const error = handle.writeUtf8String(write, line);
      if (error < 0) return byStatus(error);
      const reading = handle.readStart();
      if (reading < 0) byStatus(reading);
    };
    const error = handle.connect(connect, socket);
    if (error < 0) byStatus(error);
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// Over `net`, loaded only here.

function overNet(socket: string, line: string, options: LineOptions): Promise<string> {
  const net = createRequire(import.meta.url)("node:net") as typeof import("node:net");
  return new Promise((done, fail) => {
    const conn = net.connect(socket);
    if (options.background) conn.unref();
    const { reply, failed } = settleOnce(options, () => conn.destroy(), done, fail);
    const collect = lineCollector();
    conn.on("connect", () => conn.write(line));
    conn.on("data", (chunk: Buffer) => {
      const whole = collect(chunk);
      if (whole !== undefined) reply(whole);
    });
    conn.on("error", (error: NodeJS.ErrnoException) => failed(unreachedBy(error.code ?? error.message)));
    conn.on("close", () => failed(new Unreached(CLOSED_EARLY, false)));
  });
}
