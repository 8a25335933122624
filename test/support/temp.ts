// Test fixtures over real resources: private temp dirs removed when the test ends (STYLE §20).
// Never a timestamp-named dir, never the user's home.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";

export function tempDir(t: TestContext | { after(fn: () => void): void }, prefix = "docket-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Retries: a process that was just stopped may still be closing files inside it.
  t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
  return dir;
}
