// A real `pi --mode rpc` parent for tests: the Docket extension (parent role) plus the scripted model, hermetic
// dirs, a JSONL client split on "\n" only, and UI requests collected for assertions.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PI_ISOLATION_ARGS } from "./pi-faux.js";
import { teardown, type Hooks } from "./teardown.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const PI_CLI = join(ROOT, "node_modules/@mariozechner/pi-coding-agent/dist/cli.js");
export const DOCKET_EXTENSION = join(ROOT, "dist/src/surfaces/pi/extension.js");
export const SCRIPTED_MODEL = join(ROOT, "dist/src/surfaces/pi/scripted-model.js");
export const CONTEXT_LOG_EXTENSION = join(ROOT, "dist/test/support/context-log-ext.js");

/** The pi command line with no discovered resources, only `extensions`, the scripted model chosen and no session. */
export function hermeticPiArgs(extensions: string[]): string[] {
  return [
    PI_CLI,
    ...PI_ISOLATION_ARGS,
    ...extensions.flatMap((e) => ["-e", e]),
    "--model",
    "docket-demo/scripted",
    "--no-session",
  ];
}

/** The pi command line of a hermetic parent: no discovered resources, Docket + the scripted model (+ extras). */
export function parentPiArgs(
  options: { mode?: "rpc"; extraExtensions?: string[]; withoutDocket?: boolean } = {},
): string[] {
  const ext = [
    ...(options.withoutDocket ? [] : [DOCKET_EXTENSION]),
    SCRIPTED_MODEL,
    ...(options.extraExtensions ?? []),
  ];
  return [...hermeticPiArgs(ext), ...(options.mode === "rpc" ? ["--mode", "rpc"] : [])];
}

export interface RpcMessage {
  type: string;
  id?: string;
  method?: string;
  [key: string]: any;
}

/** Resolves with pi's first notification whose text includes `needle`. */
export function notified(pi: PiRpc, needle: string, timeoutMs?: number): Promise<RpcMessage> {
  return pi.waitFor(
    `a notification with "${needle}"`,
    (m) => m.method === "notify" && String(m.message).includes(needle),
    timeoutMs === undefined ? {} : { timeoutMs },
  );
}

export interface UiAnswer {
  value?: string;
  confirmed?: boolean;
  cancelled?: boolean;
}

export interface PiRpc {
  child: ChildProcessWithoutNullStreams;
  /** Every message seen on stdout, in order. */
  seen: RpcMessage[];
  /** When each message of `seen` arrived (epoch ms), for benchmarks. */
  seenAt: number[];
  /** stderr so far (for failure messages). */
  stderr(): string;
  /** Sends a command with a fresh id and resolves with its response. */
  call(cmd: Record<string, unknown>, timeoutMs?: number): Promise<RpcMessage>;
  /** Resolves with the first message (already seen from index `from`, or later) matching `pred`. */
  waitFor(
    what: string,
    pred: (m: RpcMessage) => boolean,
    options?: { timeoutMs?: number; from?: number },
  ): Promise<RpcMessage>;
  /** UI requests of one method, optionally only those after index `from` of `seen`. */
  ui(method: string, from?: number): RpcMessage[];
  /** Answers the next dialog request (select/confirm/input/editor) with this answer. */
  answerNext(answer: UiAnswer): void;
  /** Closes stdin and resolves with the exit code. */
  close(): Promise<number | null>;
}

export function startPiRpc(t: Hooks, options: { cwd: string; env: NodeJS.ProcessEnv; args?: string[] }): PiRpc {
  const child = spawn(process.execPath, options.args ?? parentPiArgs({ mode: "rpc" }), {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const seen: RpcMessage[] = [];
  const seenAt: number[] = [];
  const waiters: { pred: (m: RpcMessage) => boolean; resolve: (m: RpcMessage) => void }[] = [];
  const answers: UiAnswer[] = [];
  const pendingDialogs: RpcMessage[] = [];
  let err = "";
  let buf = "";
  let exited: number | null | undefined;
  const exitWaiters: ((code: number | null) => void)[] = [];
  const send = (msg: Record<string, unknown>) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  const answerDialog = (req: RpcMessage, a: UiAnswer) => send({ type: "extension_ui_response", id: req.id, ...a });
  child.stderr.setEncoding("utf8").on("data", (s: string) => (err += s));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buf += chunk;
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i).replace(/\r$/, "");
      buf = buf.slice(i + 1);
      if (!line) continue;
      let msg: RpcMessage;
      try {
        msg = JSON.parse(line) as RpcMessage;
      } catch {
        msg = { type: "unparsed", line };
      }
      seen.push(msg);
      seenAt.push(Date.now());
      if (msg.type === "extension_ui_request" && ["select", "confirm", "input", "editor"].includes(msg.method ?? "")) {
        const a = answers.shift();
        if (a) answerDialog(msg, a);
        else pendingDialogs.push(msg);
      }
      for (const w of [...waiters]) {
        if (w.pred(msg)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(msg);
        }
      }
    }
  });
  child.on("exit", (code) => {
    exited = code;
    for (const w of exitWaiters.splice(0)) w(code);
  });
  teardown(t).child(child);

  const waitFor: PiRpc["waitFor"] = (what, pred, opts = {}) => {
    const found = seen.slice(opts.from ?? 0).find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        waiters.splice(
          waiters.findIndex((w) => w.resolve === done),
          1,
        );
        reject(new Error(`timed out waiting for ${what}; stderr: ${err.slice(-2000)}`));
      }, opts.timeoutMs ?? 30_000);
      const done = (m: RpcMessage) => {
        clearTimeout(timer);
        resolvePromise(m);
      };
      waiters.push({ pred, resolve: done });
    });
  };
  let n = 0;
  return {
    child,
    seen,
    seenAt,
    stderr: () => err,
    call: (cmd, timeoutMs = 60_000) => {
      const id = `c${++n}`;
      const p = waitFor(`response to ${String(cmd.type)}`, (m) => m.type === "response" && m.id === id, {
        timeoutMs,
        from: seen.length,
      });
      send({ ...cmd, id });
      return p;
    },
    waitFor,
    ui: (method, from = 0) => seen.slice(from).filter((m) => m.type === "extension_ui_request" && m.method === method),
    answerNext: (a) => {
      const req = pendingDialogs.shift();
      if (req) answerDialog(req, a);
      else answers.push(a);
    },
    close: () => {
      if (exited !== undefined) return Promise.resolve(exited);
      return new Promise((r) => {
        exitWaiters.push(r);
        child.stdin.end();
      });
    },
  };
}
