// The mount plan of a contained worker: parents before children so the most specific mount wins, the home replaced by
// the door when there is one, secrets and sockets hidden, and the sandbox config a project may only tighten.

import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveConfig } from "../../../src/domain/config.js";
import { bwrapArgs, orderMounts, planMounts, type SandboxInput } from "../../../src/domain/workers/sandbox-plan.js";

const input = (over: Partial<SandboxInput> = {}): SandboxInput => ({
  network: "allow",
  readOnly: false,
  checkout: "/src/app",
  workspace: "/h/.pi/agent/docket/fleet/w1/workspace",
  git: { commonDir: "/src/app/.git", privateGitDir: "/h/.pi/agent/docket/fleet/w1/git" },
  docket: {
    home: "/h/.pi/agent/docket",
    doorDir: "/h/.pi/agent/docket/door",
    files: ["/h/.pi/agent/docket/fleet/w1/task.md"],
  },
  scratch: "/h/.pi/agent/docket/fleet/w1/scratch",
  agentWritable: ["/h/.pi/agent/docket/fleet/w1/session"],
  agentReadOnly: ["/h/.pi/agent"],
  exposeReadOnly: [],
  homes: ["/h"],
  hideExtra: ["/h/.pi/agent/sessions"],
  ...over,
});

const seen = (args: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--tmpfs") out.push(`hide ${args[++i]}`);
    else if (args[i] === "--bind") {
      i++;
      out.push(`rw ${args[++i]}`);
    } else if (args[i] === "--ro-bind") {
      const from = args[++i]!;
      const to = args[++i]!;
      out.push(from === "/dev/null" ? `hide ${to}` : `ro ${to}`);
    }
  }
  return out;
};

test("the default home under ~/.pi: ~/.pi hidden, pi's agent dir read-only, the home hidden but for the door and its own files, workspace writable", () => {
  const args = bwrapArgs(planMounts(input()), () => "dir", { network: "allow" });
  const order = seen(args);
  const at = (entry: string) => {
    const i = order.indexOf(entry);
    assert.notEqual(i, -1, `${entry} in ${order.join(" | ")}`);
    return i;
  };
  assert.ok(at("hide /h/.pi") < at("ro /h/.pi/agent"));
  assert.ok(at("ro /h/.pi/agent") < at("hide /h/.pi/agent/docket"));
  assert.ok(at("hide /h/.pi/agent/docket") < at("ro /h/.pi/agent/docket/door"));
  // The door's control directory (control socket, supervisor, door.env) sits beside the door dir, under the hidden home.
  assert.deepEqual(
    order.filter((e) => e.includes("door-control")),
    [],
  );
  assert.ok(at("hide /h/.pi/agent/docket") < at("rw /h/.pi/agent/docket/fleet/w1/workspace"));
  assert.ok(at("ro /src/app") < at("ro /src/app/.git"));
  assert.ok(at("hide /h/.pi/agent/docket") < at("rw /h/.pi/agent/docket/fleet/w1/git"));
  // Nothing of the repository's .git is writable: not its objects, not the worktree's admin dir.
  assert.deepEqual(
    order.filter((e) => e.startsWith("rw /src/app/.git")),
    [],
  );
  at("hide /h/.ssh");
  at("hide /h/.aws");
  at("hide /h/.pi/agent/sessions");
  at("hide /tmp");
  for (const flag of ["--unshare-user", "--unshare-pid", "--die-with-parent", "--cap-drop"])
    assert.ok(args.includes(flag), flag);
  // Its own network namespace unless the human chose the machine's network.
  assert.ok(args.includes("--unshare-net"));
  assert.ok(
    bwrapArgs(planMounts(input({ network: "none" })), () => "dir", { network: "none" }).includes("--unshare-net"),
  );
  assert.ok(
    !bwrapArgs(planMounts(input({ network: "open" })), () => "dir", { network: "open" }).includes("--unshare-net"),
  );
});

test("the home is not there: only the door's sockets (its own files hidden) and the worker's own task files, read-only", () => {
  const order = seen(
    bwrapArgs(planMounts(input()), (p) => (p.endsWith(".env") || p.endsWith(".md") ? "file" : "dir"), {
      network: "allow",
    }),
  );
  assert.ok(order.includes("hide /h/.pi/agent/docket"));
  assert.ok(order.includes("ro /h/.pi/agent/docket/fleet/w1/task.md"));
  assert.ok(order.includes("ro /h/.pi/agent/docket/door"));
  assert.ok(
    order.indexOf("hide /h/.pi/agent/docket") < order.indexOf("ro /h/.pi/agent/docket/door"),
    "the home is hidden before the door is shown",
  );
  assert.ok(!order.some((e) => e === "rw /h/.pi/agent/docket"));
  const args = bwrapArgs(planMounts(input()), () => "dir", { network: "allow" });
  const remounts = args.flatMap((a, i) => (a === "--remount-ro" ? [args[i + 1]] : []));
  assert.ok(
    remounts.includes("/h/.pi/agent/docket") && !remounts.includes("/tmp"),
    "hidden directories are read-only; /tmp stays writable",
  );
  assert.ok(
    args.indexOf("--remount-ro") > args.lastIndexOf("--bind"),
    "remounted after every mount inside them exists",
  );
});

test("a read-only kind gets nothing writable but scratch and its agent state; missing paths are left out; a hidden file is covered with /dev/null", () => {
  const plan = planMounts(input({ readOnly: true, workspace: "/src/app", git: undefined }));
  const rw = orderMounts(plan)
    .filter((m) => m.kind === "rw")
    .map((m) => m.path);
  assert.deepEqual(rw, ["/h/.pi/agent/docket/fleet/w1/scratch", "/h/.pi/agent/docket/fleet/w1/session"]);
  const args = bwrapArgs(plan, (p) => (p === "/h/.netrc" ? "file" : p.startsWith("/h/.aws") ? "missing" : "dir"), {
    network: "allow",
  });
  assert.ok(args.join(" ").includes("--ro-bind /dev/null /h/.netrc"));
  assert.ok(!args.includes("/h/.aws"));
});

test("sandbox config: a string or an object; a project may require it or cut the network, never loosen either", () => {
  assert.equal(resolveConfig({ sandbox: "required" }, undefined).config.sandbox.mode, "required");
  const loosen = resolveConfig(
    { sandbox: { mode: "required", network: "none" } },
    { sandbox: { mode: "off", network: "default", readOnlyPaths: ["/x"] } },
  );
  assert.deepEqual(loosen.config.sandbox, { mode: "required", network: "none", allow: [], readOnlyPaths: [] });
  assert.equal(loosen.warnings.length, 3);
  const tighten = resolveConfig({ sandbox: "auto" }, { sandbox: { mode: "required", network: "none" } });
  assert.deepEqual([tighten.config.sandbox.mode, tighten.config.sandbox.network], ["required", "none"]);
  assert.equal(resolveConfig(undefined, { worker: { unattended: true } }).config.worker.unattended, false);
  assert.match(
    resolveConfig({ sandbox: "sometimes" }, undefined).warnings[0]!,
    /sandbox\.mode must be one of auto, required, off/,
  );
});
