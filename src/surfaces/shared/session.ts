// One CLI invocation's engine: opened lazily from the process environment, closed by main.

import { openEngine, type EngineContext } from "../../engine/context.js";

let current: EngineContext | undefined;

export function engine(): EngineContext {
  current ??= openEngine({ env: process.env, cwd: process.cwd() });
  return current;
}

export function closeEngine(): void {
  current?.close();
  current = undefined;
}
