// The doctor's notify lines: with desktop notifications on, an opener a click cannot start is a warning that says how
// to fix it; a program that is there (or desktop notifications off) is no warning.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkNotify } from "../../../src/engine/doctor/notify-checks.js";
import { tempDir } from "../../support/temp.js";

function findings(t: { after(fn: () => void): void }, notify: unknown) {
  const home = tempDir(t, "docket-notify-doctor-");
  writeFileSync(join(home, "config.json"), JSON.stringify({ notify }));
  return checkNotify({
    DOCKET_HOME: home,
    PATH: process.env.PATH,
    DBUS_SESSION_BUS_ADDRESS: "unix:path=/nowhere",
  }).filter((f) => f.severity !== "ok");
}

test("an opener that is not found is a warning while desktop notifications are on, and nothing while they are off", (t) => {
  const missing = join(tempDir(t, "docket-no-opener-"), "no-such-opener");
  assert.deepEqual(
    findings(t, { desktop: true, openCommand: [missing] }).map((f) => [f.severity, f.message]),
    [
      [
        "warning",
        `notify.openCommand's program ${JSON.stringify(missing)} is not found, so clicking a desktop notification opens nothing`,
      ],
    ],
  );
  assert.deepEqual(findings(t, { desktop: false, openCommand: [missing] }), []);
  assert.deepEqual(findings(t, { desktop: true, openCommand: [process.execPath] }), [], "a program that exists");
});
