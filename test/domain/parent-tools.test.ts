// The box of the pi session's own tools, as bubblewrap's argv: the system writable as the human's shell has it, Docket's
// home an empty read-only tmpfs holding only the note, the door and the session's sockets hidden, run-later files read-only.

import { test } from "node:test";
import assert from "node:assert/strict";
import { isWithin, PARENT_TOOLS_NOTE, planParentToolMounts } from "../../src/domain/parent-tools.js";
import { bwrapArgs, type PathType } from "../../src/domain/workers/sandbox-plan.js";

const dirs = new Set(["/h/.pi/agent", "/h/.pi/agent/docket", "/tmp/tmux-1000", "/run/user", "/opt/docket"]);
const typeOf = (path: string): PathType => (dirs.has(path) ? "dir" : path === "/dev/null" ? "file" : "missing");

test("the parent's box binds the system writable, hides the home but for its note, and keeps pi's agent dir read-only", () => {
  const mounts = planParentToolMounts({
    home: "/h/.pi/agent/docket",
    doorDir: "/h/.pi/agent/docket/door",
    escapes: ["/tmp/tmux-1000"],
    runLater: ["/opt/docket", "/h/.pi/agent"],
  });
  const args = bwrapArgs(mounts, typeOf, { network: "open", system: "rw" });
  const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
  assert.ok(at("--bind", "/", "/") >= 0, "the human's system as their shell sees it");
  assert.equal(at("--ro-bind", "/", "/"), -1);
  assert.ok(at("--unshare-pid") >= 0, "its own PID space: what it starts ends with it");
  const agent = at("--ro-bind", "/h/.pi/agent", "/h/.pi/agent");
  const home = at("--tmpfs", "/h/.pi/agent/docket");
  const note = at("--ro-bind", "/dev/null", `/h/.pi/agent/docket/${PARENT_TOOLS_NOTE}`);
  const sealed = at("--remount-ro", "/h/.pi/agent/docket");
  assert.ok(agent >= 0 && agent < home && home < note && note < sealed, args.join(" "));
  assert.ok(at("--tmpfs", "/tmp/tmux-1000") >= 0, "the human's tmux server is out of reach");
  assert.ok(at("--tmpfs", "/run/user") >= 0, "the session bus and systemd --user are out of reach");
  assert.ok(at("--ro-bind", "/opt/docket", "/opt/docket") >= 0, "Docket's install is read-only");
  assert.equal(args.includes("/h/.pi/agent/docket/door"), false, "a door dir that is not there is left out");
});

test("a worker's plan is unchanged: the system read-only unless asked otherwise", () => {
  assert.deepEqual(bwrapArgs([], typeOf, { network: "none" }).slice(0, 12), [
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--unshare-net",
    "--die-with-parent",
    "--cap-drop",
    "ALL",
    "--ro-bind",
    "/",
    "/",
  ]);
});

test("isWithin compares whole path segments", () => {
  assert.equal(isWithin("/h/docket", "/h/docket"), true);
  assert.equal(isWithin("/h/docket/config.json", "/h/docket"), true);
  assert.equal(isWithin("/h/docket-old/config.json", "/h/docket"), false);
  assert.equal(isWithin("/h", "/h/docket"), false);
});
