// `docket worker hook prompt|stop|notify`: run by a Claude Code or Codex worker's own hooks, never by a person.
// It prints nothing and always exits 0: a hook's output or failure would reach the agent's prompt instead.

import type { Command } from "commander";
import { ReportedExit, type Io } from "../io.js";
import { callDoor, doorOf, type Door } from "../door-client.js";
import { readStdinText, stdinIsDevice } from "../door-input.js";

const EVENTS = ["prompt", "stop", "notify"];

export function registerWorkerHook(worker: Command, _io: Io): void {
  worker
    .command("hook")
    .description(
      "record a Claude Code / Codex hook: prompt | stop (JSON on stdin) | notify (JSON as the last argument)",
    )
    .argument("<event>", "prompt | stop | notify")
    .argument("[payload]", "the hook's JSON (Codex notify passes it here; otherwise read from standard input)")
    .action(async (event: string, payload: string | undefined) => {
      let door: Door | undefined;
      try {
        door = doorOf(process.env);
        if (!EVENTS.includes(event)) throw new Error(`unknown hook event ${JSON.stringify(event)}`);
        const raw = payload ?? (stdinIsDevice() ? "" : readStdinText());
        await callDoor(door, "hook", { event, payload: parseJson(raw) });
      } catch (error) {
        // Recorded where the human looks at this worker; without an identity there is no worker to record it on.
        if (door)
          await callDoor(door, "event", {
            event: { type: "error", during: `hook ${event}`, message: (error as Error).message },
          }).catch(() => undefined);
      }
    });
}

/** `docket worker gate`: Claude Code's PreToolUse hook before Edit/Write. Exit 2 (refused, reason on stderr) while the plan gate is armed or cannot be read. */
export function registerWorkerGate(worker: Command, io: Io): void {
  worker
    .command("gate")
    .description("Claude Code's PreToolUse hook: refuse a file edit while this worker's plan gate is armed (exit 2)")
    .action(async () => {
      const { PLAN_GATE_REFUSAL } = await import("../../../domain/plans/plan-gate.js");
      let reason: string | undefined;
      try {
        const { state } = await callDoor<{ state: string }>(doorOf(process.env), "gate", {});
        if (state !== "none" && state !== "discharged") reason = PLAN_GATE_REFUSAL;
      } catch (error) {
        reason = `Refused by Docket: it could not check your plan gate (${(error as Error).message}); ask the human with docket_wait.`; // fail closed
      }
      if (reason === undefined) return;
      io.err(reason);
      throw new ReportedExit(2); // Claude Code reads exit 2 as "refused", with stderr as the reason it shows the model
    });
}

function parseJson(raw: string): unknown {
  try {
    return raw.trim() === "" ? undefined : JSON.parse(raw);
  } catch {
    return undefined; // a payload we cannot read still marks the turn boundary
  }
}
