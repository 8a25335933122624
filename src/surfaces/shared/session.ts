// One invocation's engine, made by its composition point (the CLI's main, pi's extension factory, the door) and handed
// to the verbs: opened on the first call, so a command that needs no ledger opens none; closed by whoever made it.

import type { EngineContext } from "../../engine/context.js";
import { openEngine } from "../../engine/open.js";

/** What a verb is handed: this invocation's engine, opened on the first call. */
export type EngineOpener = () => EngineContext;

export interface EngineSession {
  readonly engine: EngineOpener;
  /** Sends the notifications that are due, then closes (no long-lived process needed); unopened: nothing. */
  close(): Promise<void>;
}

export interface EngineSessionOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Who claims the due notifications when the session closes (`cli:<pid>`). */
  holder: string;
  /** The terminal a due notification may be written to at close, if the invocation has one. */
  terminal?: { write(s: string): void; insideTmux: boolean };
}

export function createEngineSession(options: EngineSessionOptions): EngineSession {
  let current: EngineContext | undefined;
  return {
    engine: () => (current ??= openEngine({ env: options.env, cwd: options.cwd })),
    close: async () => {
      const ctx = current;
      current = undefined;
      if (ctx) await sendDueThenClose(ctx, options);
    },
  };
}

/**
 * Sends what is due (one indexed query when nothing is), revives the door's supervisor if it should run and does not
 * (a stat, a small read and a signal 0 when all is well), then closes. Neither ever fails the command.
 */
async function sendDueThenClose(ctx: EngineContext, options: EngineSessionOptions): Promise<void> {
  try {
    const { sendDueNotifications } = await import("../../engine/talk/notify-dispatch.js");
    // Read only when a notification goes to the terminal (the CLI asks its stderr then).
    await sendDueNotifications(ctx, {
      holder: options.holder,
      get terminal() {
        return options.terminal;
      },
    });
  } catch {
    // Lost: only this attempt. What was claimed records its sinks' outcome; what was not stays due for the next process.
  }
  try {
    const { supervisorMissing } = await import("../../engine/door/keep.js");
    if (supervisorMissing(ctx.home.root)) (await import("../../engine/door/door.js")).reviveSupervisor(ctx);
  } catch {
    // The next command looks again; `docket doctor` names a door that is down.
  } finally {
    ctx.close();
  }
}
