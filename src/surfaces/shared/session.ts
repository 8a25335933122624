// One CLI invocation's engine: opened lazily from the process environment, closed by main.
// Before closing, a command that opened it sends the notifications that are due (issue 29: no long-lived process needed).

import type { EngineContext } from "../../engine/context.js";
import { openEngine } from "../../engine/open.js";

let current: EngineContext | undefined;

export function engine(): EngineContext {
  current ??= openEngine({ env: process.env, cwd: process.cwd() });
  return current;
}

/** Sends what is due (one indexed query when nothing is), then closes. A failed send never fails the command. */
export async function closeEngine(): Promise<void> {
  const ctx = current;
  current = undefined;
  if (!ctx) return;
  try {
    const { sendDueNotifications } = await import("../../engine/talk/notify-dispatch.js");
    await sendDueNotifications(ctx, {
      holder: `cli:${process.pid}`,
      ...(process.stderr.isTTY ? { terminal: { write: (s: string) => void process.stderr.write(s), insideTmux: Boolean(process.env.TMUX) } } : {}),
    });
  } catch {
    // Lost: only this attempt. What was claimed records its sinks' outcome; what was not stays due for the next process.
  } finally {
    ctx.close();
  }
}
