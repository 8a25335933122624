// A scripted model API on 127.0.0.1 for driving real agent CLIs in tests: records every request, answers main-loop
// requests from a turn list and side requests (titles, token counts) with a fixed reply, so the script stays in step.

import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One tool call the scripted model makes; `id` defaults to a fresh `call_<n>`. */
export interface ScriptedToolCall {
  name: string;
  /** The tool's namespace where the wire has them (Codex lists MCP tools under `mcp__<server>`). */
  namespace?: string;
  input: Record<string, unknown>;
  id?: string;
}

/** One assistant turn: text first, then tool calls (none ends the agent's turn). */
export interface ScriptStep {
  text?: string;
  tools?: ScriptedToolCall[];
  /** Serve this step but keep the entry: the next main request asks the same entry again (a filler while waiting). */
  again?: boolean;
  /** The token usage this response reports (each wire says it in its own fields); a small fixed default without it. */
  usage?: ScriptedUsage;
}

/** Tokens one scripted response reports: fresh input, output, cache reads and cache writes. */
export interface ScriptedUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** A fixed step, or one computed (or awaited) from the request that asks for it, e.g. held until a worker is up. */
export type ScriptEntry = ScriptStep | ((request: RecordedRequest) => ScriptStep | Promise<ScriptStep>);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when the body was not JSON). */
  body: any;
  /** Served from the script (a main-loop request) rather than as a side request. */
  main: boolean;
  /** Index of the script entry that answered it. */
  step?: number;
}

/** How one vendor's wire looks: which requests are the agent's main loop, and how a step is streamed back. */
export interface ModelWire {
  /** Answers requests that are not model turns at all (token counts, model lists); false when not handled. */
  answerOther(request: RecordedRequest, res: ServerResponse): boolean;
  isMain(request: RecordedRequest): boolean;
  stream(res: ServerResponse, step: ScriptStep, request: RecordedRequest, serial: number): void;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** The main-loop requests in arrival order. */
  main(): RecordedRequest[];
  /** Appends steps to the script. */
  push(...entries: ScriptEntry[]): void;
  /** One line per request (path, main or side, the step that answered it), for a failing test's message. */
  describe(): string;
  close(): Promise<void>;
}

/** What the model says once the script has run out: a plain answer that ends the turn. */
export const END_OF_SCRIPT: ScriptStep = { text: "(end of script)" };
/** What every side request (a title, a summary) gets. */
export const SIDE_REPLY: ScriptStep = { text: "Worker task" };

export async function startFakeModelServer(wire: ModelWire, script: ScriptEntry[]): Promise<FakeModelServer> {
  const entries = [...script];
  const requests: RecordedRequest[] = [];
  let served = 0;
  let serial = 0;
  const server = createServer((req, res) => {
    const answer = async (request: RecordedRequest, entry: ScriptEntry, serial: number) => {
      try {
        const step = typeof entry === "function" ? await entry(request) : entry;
        if (step.again) entries.splice(served, 0, entry);
        wire.stream(res, step, request, serial);
      } catch (error) {
        json(res, 500, { error: { message: `scripted step failed: ${(error as Error).message}` } });
      }
    };
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = raw === "" ? undefined : JSON.parse(raw);
      } catch {
        body = undefined; // recorded as-is below; a test asserting on it sees the missing body
      }
      const request: RecordedRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body,
        main: false,
      };
      requests.push(request);
      if (wire.answerOther(request, res)) return;
      serial++;
      if (!wire.isMain(request)) {
        wire.stream(res, SIDE_REPLY, request, serial);
        return;
      }
      request.main = true;
      const entry = entries[served];
      if (entry === undefined) {
        wire.stream(res, END_OF_SCRIPT, request, serial);
        return;
      }
      request.step = served++;
      void answer(request, entry, serial);
    });
  });
  let closing = false;
  // An agent still running when the test ends keeps reconnecting: once closing, every new connection is cut at once.
  server.on("connection", (socket) => {
    if (closing) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    main: () => requests.filter((r) => r.main),
    push: (...more) => void entries.push(...more),
    describe: () =>
      requests
        .map(
          (r, i) =>
            `${i + 1}. ${r.method} ${r.path} ${r.main ? `main step ${r.step ?? "(end of script)"}` : "side"} ${String(r.headers["x-codex-turn-metadata"] ?? "").slice(0, 160)}`,
        )
        .join("\n"),
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Writes one server-sent event. */
export function sse(res: ServerResponse, event: string, data: Record<string, unknown>): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

export function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

/**
 * An entry that makes `step`'s calls only once the request lists `tool` (agents connect MCP servers while their first
 * requests are under way); until then the model answers with `filler`, a harmless call of the agent's own tools.
 */
export function onceListed(
  tool: (request: RecordedRequest) => boolean,
  step: ScriptStep,
  filler: ScriptStep,
): ScriptEntry {
  return (request) => (tool(request) ? step : { ...filler, again: true });
}
