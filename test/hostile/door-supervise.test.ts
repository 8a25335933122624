// The door stays up: SIGKILLed while contained and uncontained workers call, it is back with no human
// command and every call lands once; a contained worker cannot stop it by any path it reaches; a dead supervisor is
// revived by the next human command; `docket doctor` names a dead door that live workers need and `--fix` restarts it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { assertExit } from "../support/docket-cli.js";
import { doorAfter, doorGround, doorUp, type DoorGround } from "../support/door-ground.js";
import { workerIdentityEnv } from "../support/launch-env.js";
import { waitFor } from "../support/wait.js";
import { callDoor, doorOf } from "../../src/surfaces/shared/door-client.js";

const CALLS = 18; // a worker may hold 20 undismissed notes

/** A worker that leaves CALLS notes one after another, logs any call that failed, then says it finished. */
const noter = (out: string) =>
  [
    `i=1; while [ $i -le ${CALLS} ]; do`,
    `  "$DOCKET_NODE" "$DOCKET_BIN" worker note "call-$i" >>"${out}/errors" 2>&1 || echo "FAILED call-$i exit $?" >> "${out}/failed"`,
    "  i=$((i + 1)); sleep 0.2",
    "done",
    `echo finished > "${out}/finished"`,
    "exec sleep 600",
  ].join("\n");

const workspaceOf = (g: DoorGround, worker: string) => join(g.home, "fleet", worker, "workspace");

test("the door SIGKILLed twice while a contained and an uncontained worker call, with no human command after: it is back by itself and every call lands exactly once", {
  timeout: 300_000,
}, async (t) => {
  const g = doorGround(t);
  // Each worker writes its log into its own workspace (the one place a contained worker may write that we can read).
  const contained = g.spawn(noter("$PWD"));
  const uncontained = g.spawn(noter("$PWD"), { uncontained: true });
  const first = await doorUp(g, "the door and its supervisor");
  await waitFor("both workers calling", () => g.notes(contained).size >= 3 && g.notes(uncontained).size >= 3, 120_000);

  process.kill(first.door, "SIGKILL");
  const second = await doorAfter(g, first.door, "a new door, with no human command");
  await waitFor("more calls through the new door", () => g.notes(contained).size >= 8, 120_000);
  process.kill(second, "SIGKILL");

  for (const w of [contained, uncontained])
    await waitFor(`${w} to finish its calls`, () => existsSync(join(workspaceOf(g, w), "finished")), 240_000, 200);
  for (const w of [contained, uncontained]) {
    const failed = join(workspaceOf(g, w), "failed");
    const said = (name: string) =>
      existsSync(join(workspaceOf(g, w), name)) ? readFileSync(join(workspaceOf(g, w), name), "utf8") : "";
    assert.equal(existsSync(failed), false, `${w}: ${said("failed")}${said("errors")}`);
    const notes = g.notes(w);
    const expected = Array.from({ length: CALLS }, (_, i) => `call-${i + 1}`);
    assert.deepEqual([...notes.keys()].sort(), expected.sort(), `${w}: every call landed`);
    for (const [text, n] of notes) assert.equal(n, 1, `${w}: ${text} landed once`);
  }
  assert.equal(g.supervisorPid(), first.supervisor, "the same supervisor restarted the door both times");
  const third = g.doorPid();
  assert.ok(third !== undefined && third !== second && third !== first.door, "a third door serves");
  const shown = g.human("show", contained, "--json");
  assert.equal(shown.json.contained, true, "the first worker ran contained");
  assert.equal(g.human("show", uncontained, "--json").json.contained, false);
});

/** A script of attempts: each writes `<name> ESCAPED` or `<name> blocked` to the worker's results file. */
function attempts(list: Record<string, string>): string {
  const lines = ['out="$PWD/results"', ': > "$out"'];
  for (const [name, cmd] of Object.entries(list))
    lines.push(
      `if ( ${cmd} ) >/dev/null 2>&1; then echo "${name} ESCAPED" >> "$out"; else echo "${name} blocked" >> "$out"; fi`,
    );
  return lines.join("\n");
}

/** A node one-liner run in the sandbox: sends one request line to a socket, succeeds only on an `ok: true` reply. */
const ask = (socket: string, request: string) =>
  `"$DOCKET_NODE" -e 'const c = require("net").connect(process.argv[1]); c.on("connect", () => c.write(process.argv[2] + "\\n")); let b = ""; c.on("data", (d) => { b += d; if (b.includes("\\n")) process.exit(JSON.parse(b).ok === true ? 0 : 1); }); c.on("error", () => process.exit(1)); setTimeout(() => process.exit(1), 5000)' "${socket}" '${request}'`;

test("a contained worker cannot stop the door or steer it: no control socket in its sandbox, the explain socket and its own socket refuse stop and sync, signals reach nothing; the door keeps serving", {
  timeout: 300_000,
}, async (t) => {
  const g = doorGround(t);
  const victim = g.spawn("exec sleep 600");
  const before = await doorUp(g, "the door and its supervisor");
  // The worker's own identity spliced into the single-quoted request line by the shell.
  const identity =
    '{"call":"stop","worker":"\'"$DOCKET_WORKER_ID"\'","generation":\'"$DOCKET_GENERATION"\',"token":"\'"$DOCKET_RUN_TOKEN"\'"}';
  const script = `${attempts({
    "list-control-dir": `ls ${join(g.home, "door-control")}`,
    "stop-on-control-socket": ask(join(g.home, "door-control", "control.sock"), '{"call":"stop"}'),
    "stop-on-old-control-path": ask(join(g.home, "door", "control.sock"), '{"call":"stop"}'),
    "stop-on-explain-socket": ask('$(dirname "$DOCKET_DOOR")/explain.sock', '{"call":"stop"}'),
    "sync-on-explain-socket": ask('$(dirname "$DOCKET_DOOR")/explain.sock', '{"call":"sync"}'),
    "status-on-explain-socket": ask('$(dirname "$DOCKET_DOOR")/explain.sock', '{"call":"status"}'),
    "stop-on-own-socket": ask("$DOCKET_DOOR", identity),
    "sigkill-door": `kill -KILL ${before.door}`,
    "sigterm-door": `kill -TERM ${before.door}`,
    "sigkill-supervisor": `kill -KILL ${before.supervisor}`,
    "see-door-process": `grep -qa "door" /proc/${before.door}/cmdline`,
    "plant-in-door-dir": `touch "$(dirname "$DOCKET_DOOR")/control.sock"`,
    "remove-own-socket": `rm -f "$DOCKET_DOOR" && test ! -e "$DOCKET_DOOR"`,
  })}
sleep 2
"$DOCKET_NODE" "$DOCKET_BIN" worker note "still served" > /dev/null && echo served > "$PWD/after"
exec sleep 600`;
  const hostile = g.spawn(script);
  const results = await waitFor(
    "the attempts' results",
    () => {
      try {
        const text = readFileSync(join(workspaceOf(g, hostile), "results"), "utf8")
          .trim()
          .split("\n");
        return text.length === 13 ? text : undefined;
      } catch {
        return undefined;
      }
    },
    120_000,
    200,
  );
  assert.equal(g.human("show", hostile, "--json").json.contained, true, "the attacker runs contained");
  assert.deepEqual(
    results.filter((l) => !l.endsWith(" blocked")),
    [],
    `attempts that worked: ${results.join("; ")}`,
  );
  await waitFor("its call after the attempts", () => existsSync(join(workspaceOf(g, hostile), "after")), 60_000, 200);
  assert.equal(g.notes(hostile).get("still served"), 1);
  assert.equal(g.doorPid(), before.door, "the same door serves: it was never stopped or restarted");
  assert.equal(g.supervisorPid(), before.supervisor);
  // The other worker is served too: a call as it, from the test, through its own socket.
  const door = doorOf({ ...workerIdentityEnv(g.home, victim), DOCKET_DOOR: join(g.home, "door", `${victim}-1.sock`) });
  await callDoor(door, "heartbeat", {});
});

test("the supervisor and the door both SIGKILLed: nothing comes back by itself, and the next human command (`docket ls`) revives both; the worker's call then lands", {
  timeout: 300_000,
}, async (t) => {
  const g = doorGround(t);
  const w = g.spawn("exec sleep 600");
  const before = await doorUp(g, "the door and its supervisor");
  process.kill(before.supervisor, "SIGKILL");
  process.kill(before.door, "SIGKILL");
  await new Promise((r) => setTimeout(r, 3_000));
  assert.equal(g.doorPid(), undefined, "no door without a supervisor or a human command");
  assertExit(g.human("ls"), 0);
  const after = await doorUp(g, "the door and supervisor `docket ls` revived");
  assert.notEqual(after.supervisor, before.supervisor);
  const door = doorOf({ ...workerIdentityEnv(g.home, w), DOCKET_DOOR: join(g.home, "door", `${w}-1.sock`) });
  await callDoor(door, "heartbeat", {});
  // Killed alone, the door comes back by itself again: the revived supervisor supervises.
  process.kill(after.door, "SIGKILL");
  await doorAfter(g, after.door, "a new door");
});

test("`docket doctor` reports a dead door that a live worker needs as a problem, with the fix; `doctor --fix` starts it and its supervisor", {
  timeout: 300_000,
}, async (t) => {
  const g = doorGround(t);
  const w = g.spawn("exec sleep 600");
  const before = await doorUp(g, "the door and its supervisor");
  const healthy = g.human("doctor", "--json");
  const okLine = (healthy.json.findings ?? healthy.json.error.findings).find((f: any) => f.check === "door");
  assert.equal(okLine.severity, "ok");
  assert.match(
    okLine.message,
    new RegExp(`running \\(pid ${before.door}, .*supervised by pid ${before.supervisor}\\)`),
  );

  process.kill(before.supervisor, "SIGKILL");
  process.kill(before.door, "SIGKILL");
  const report = g.human("doctor", "--json");
  assertExit(report, 1);
  const finding = report.json.error.findings.find((f: any) => f.check === "door");
  assert.equal(finding.severity, "problem");
  assert.equal(
    finding.message,
    `not running while 1 worker generation needs it (${w}@1): their calls fail with door-unreachable`,
  );
  assert.match(finding.fix, /^run `docket doctor --fix` to start the door and its supervisor/);
  assert.equal(g.doorPid(), undefined, "doctor without --fix changes nothing");

  const fixed = g.human("doctor", "--fix", "--json");
  const door = (fixed.json.findings ?? fixed.json.error.findings).find((f: any) => f.check === "door");
  assert.equal(door.fixed, true, JSON.stringify(door));
  const after = await doorUp(g, "the door doctor --fix started");
  assert.notEqual(after.door, before.door);
  const client = doorOf({ ...workerIdentityEnv(g.home, w), DOCKET_DOOR: join(g.home, "door", `${w}-1.sock`) });
  await callDoor(client, "heartbeat", {});
});
