// `docket worker hook prompt|stop|notify`: run by a Claude Code or Codex worker's own hooks, never by a person.
// It prints nothing and always exits 0: a hook's output or failure would reach the agent's prompt instead.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { callDoor, doorOf, type Door } from "../door-client.js";

const EVENTS = ["prompt", "stop", "notify"];

export function registerWorkerHook(worker: Command, _io: Io): void {
  worker
    .command("hook")
    .description("record a Claude Code / Codex hook: prompt | stop (JSON on stdin) | notify (JSON as the last argument)")
    .argument("<event>", "prompt | stop | notify")
    .argument("[payload]", "the hook's JSON (Codex notify passes it here; otherwise read from standard input)")
    .action(async (event: string, payload: string | undefined) => {
      let door: Door | undefined;
      try {
        door = doorOf(process.env);
        if (!EVENTS.includes(event)) throw new Error(`unknown hook event ${JSON.stringify(event)}`);
        const raw = payload ?? (process.stdin.isTTY ? "" : await readAll());
        await callDoor(door, "hook", { event, payload: parseJson(raw) });
      } catch (error) {
        // Recorded where the human looks at this worker; without an identity there is no worker to record it on.
        if (door) await callDoor(door, "event", { event: { type: "error", during: `hook ${event}`, message: (error as Error).message } }).catch(() => undefined);
      }
    });
}

function parseJson(raw: string): unknown {
  try {
    return raw.trim() === "" ? undefined : JSON.parse(raw);
  } catch {
    return undefined; // a payload we cannot read still marks the turn boundary
  }
}

async function readAll(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
