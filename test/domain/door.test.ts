// The door's names: the control directory sits beside the workers' socket directory, never inside it, and
// a home moves both to /tmp as soon as either's longest socket path would not bind.

import { test } from "node:test";
import assert from "node:assert/strict";
import { doorControlDirFor, doorDirFor, SOCKET_PATH_MAX, supervisorCommand } from "../../src/domain/door.js";

const bytes = (s: string) => new TextEncoder().encode(s).length;

test("the control directory is a sibling of the door directory, not under it (a sandbox binds the door directory)", () => {
  assert.equal(doorControlDirFor("/h/docket/door"), "/h/docket/door-control");
  assert.equal(doorControlDirFor("/tmp/docket-1000/0123456789abcdef/"), "/tmp/docket-1000/0123456789abcdef-control");
  assert.ok(!doorControlDirFor("/h/docket/door").startsWith("/h/docket/door/"));
});

test("a home stays in place while both its longest sockets bind, and moves to /tmp the first byte either would not", () => {
  const hash = "f".repeat(64);
  // "<home>/door-control/supervisor.sock" is the longest: home + 29 bytes.
  const fits = `/${"a".repeat(SOCKET_PATH_MAX - 30)}`;
  assert.equal(bytes(`${fits}/door-control/supervisor.sock`), SOCKET_PATH_MAX);
  assert.equal(doorDirFor(fits, 1000, hash), `${fits}/door`);
  const over = `${fits}b`;
  const moved = doorDirFor(over, 1000, hash);
  assert.equal(moved, `/tmp/docket-1000/${"f".repeat(16)}`);
  assert.ok(bytes(`${doorControlDirFor(moved)}/supervisor.sock`) <= SOCKET_PATH_MAX);
  assert.ok(bytes(`${moved}/w99999-99999.sock`) <= SOCKET_PATH_MAX);
});

test("the supervisor runs as `docket door supervise <door dir>` with the door's small young generation", () => {
  assert.deepEqual(supervisorCommand("/opt/docket/bin/docket.js", "/h/docket/door"), [
    "--max-semi-space-size=1",
    "/opt/docket/bin/docket.js",
    "door",
    "supervise",
    "/h/docket/door",
  ]);
});
