// The pi extension entry (package.json "pi.extensions"): the worker role when DOCKET_WORKER_ID is set, else the parent role.
// Nothing runs at import; each role is loaded only when chosen, so a worker's pi never loads the ledger or the engine.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default async function docketExtension(pi: ExtensionAPI): Promise<void> {
  if (process.env.DOCKET_WORKER_ID) (await import("./worker/role.js")).registerWorkerRole(pi, process.env);
  else (await import("./parent/role.js")).registerParentRole(pi);
}
