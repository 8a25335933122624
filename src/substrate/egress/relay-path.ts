// Where the in-sandbox relay's script is in Docket's install (shown read-only to every contained worker).
// A file of its own so the relay itself loads nothing but node's builtins.

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function relayScriptPath(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "relay-main.js");
}
