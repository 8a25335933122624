// sha256 as lowercase hex: the one way the ledger turns a secret (a worker's run token) into what it may keep.
// The migrator exposes the same function to SQL as docket_sha256, so a migration hashes exactly as the code does.

import { createHash } from "node:crypto";

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
