// Starts a door for a home whose door is gone, as whoever next needs it (tmux's rule): Docket's own node and bin,
// detached, argv only. The door takes its environment from the home's door.env, never from this caller.
// Node builtins only: a worker's small client loads it (the one substrate module it may, by name in the architecture test).

import { spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** `dist/src/substrate` → the package's `bin/docket.js`. */
const BIN = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "bin", "docket.js");

const IDENTITY = /^(DOCKET_WORKER_ID|DOCKET_GENERATION|DOCKET_RUN_TOKEN|DOCKET_DOOR)$/;

export function reviveDoor(doorDir: string): void {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!IDENTITY.test(k)) env[k] = v;
  try {
    const child = spawn(process.execPath, [BIN, "door", "serve", doorDir], { cwd: "/", env, detached: true, stdio: "ignore" });
    child.on("error", () => {}); // the caller keeps retrying and names the door as unreachable if this never comes up
    child.unref();
  } catch {
    // same: the bounded retry reports it
  }
}
