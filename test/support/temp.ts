// Test fixtures over real resources: private temp dirs removed when the test ends — by the test's
// teardown, after every process the test started has exited. Never a timestamp-named dir, never the user's home.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { teardown, type Hooks } from "./teardown.js";

export function tempDir(t: Hooks, prefix = "docket-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  teardown(t).dir(dir);
  return dir;
}
