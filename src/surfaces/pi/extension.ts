// The pi extension entry (package.json "pi.extensions"): the worker role when DOCKET_WORKER_ID is set, else the parent role.
// Nothing runs at import; pi calls the default export once per session runtime.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { registerParentRole } from "./parent/role.js";
import { registerWorkerRole } from "./worker/role.js";

export default function docketExtension(pi: ExtensionAPI): void {
  if (process.env.DOCKET_WORKER_ID) registerWorkerRole(pi, process.env);
  else registerParentRole(pi);
}
