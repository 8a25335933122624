// The tmux port against a real tmux server on a private socket: windows, remain-on-exit, capture, input, and that
// nothing Docket hands tmux is read as a format, a flag or a keystroke.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createTmux, paneFromMap, resolveTmuxServerArgs, TmuxError } from "../../src/substrate/tmux.js";
import { tempDir } from "../support/temp.js";
import { tmuxServer } from "../support/tmux.js";
import { waitFor } from "../support/wait.js";

test("the server is chosen from DOCKET_TMUX_SOCKET: a path means -S, a name means -L, unset means the default", () => {
  assert.deepEqual(resolveTmuxServerArgs("/tmp/x/sock"), ["-S", "/tmp/x/sock"]);
  assert.deepEqual(resolveTmuxServerArgs("docket-test-1"), ["-L", "docket-test-1"]);
  assert.deepEqual(resolveTmuxServerArgs(undefined), []);
  assert.deepEqual(resolveTmuxServerArgs(""), []);
});

test("a launched window runs its argv in /, keeps its pane after exit, and is found by id", async (t) => {
  const server = tmuxServer(t);
  const tmux = createTmux(server.socket);
  assert.equal(tmux.hasSession("docket-workers"), false);
  const first = tmux.launchWindow({
    session: "docket-workers",
    name: "w1",
    // It exits only after the test has seen its line: a process that prints and exits at once can die before tmux
    // has read its output from the pty, so "the output survives the exit" would depend on timing.
    argv: ["sh", "-c", 'echo "arg=$1 pwd=$(pwd)"; read line; exit 4', "sh", `it's "quoted" $HOME`],
  });
  assert.match(first.windowId, /^@\d+$/);
  assert.match(first.paneId, /^%\d+$/);
  assert.equal(tmux.hasSession("docket-workers"), true);
  const printed = /arg=it's "quoted" \$HOME pwd=\/(\n|$)/;
  await waitFor("the argv's line on the pane", () => printed.test(tmux.capture(first.paneId, 20)));
  server.tmux("send-keys", "-t", first.paneId, "Enter");
  await waitFor("the pane to die", () => tmux.paneState(first.paneId, "w1") === "dead");
  assert.match(tmux.capture(first.paneId, 20), printed, "the dead pane keeps what it printed");
  assert.equal(server.tmux("show-options", "-w", "-v", "-t", first.windowId, "remain-on-exit").trim(), "on");

  const second = tmux.launchWindow({ session: "docket-workers", name: "w2", argv: ["sleep", "30"] });
  assert.notEqual(second.windowId, first.windowId);
  const panes = tmux.listPanes()!;
  assert.equal(paneFromMap(panes, second.paneId, "w2"), "alive");
  assert.equal(paneFromMap(panes, first.paneId, "w1"), "dead");
  assert.equal(
    paneFromMap(panes, second.paneId, "w9"),
    "missing",
    "a pane in a window of another name is not this worker's",
  );
  assert.equal(tmux.paneState(second.paneId, "w9"), "missing");

  tmux.killWindow(first.windowId);
  assert.equal(tmux.paneState(first.paneId), "missing");
  tmux.killWindow(first.windowId); // killing a gone window is not an error
});

test("one-line text is typed literally and multi-line text arrives as one bracketed paste", async (t) => {
  const server = tmuxServer(t);
  const tmux = createTmux(server.socket);
  const { paneId } = tmux.launchWindow({ session: "s", name: "w1", argv: ["cat"] });
  tmux.sendText(paneId, "a line with $(no expansion) and 'quotes'");
  tmux.sendText(paneId, "first\nsecond");
  const text = await waitFor("the echo", () => {
    const c = tmux.capture(paneId, 20);
    return c.includes("second") && c.split("a line with $(no expansion) and 'quotes'").length >= 3 ? c : undefined;
  });
  assert.match(text, /first/);
});

test("listing panes without a server says there are none, and a missing pane is missing", (t) => {
  const server = tmuxServer(t);
  const tmux = createTmux(server.socket);
  assert.deepEqual([...tmux.listPanes()!], []);
  assert.equal(tmux.paneState("%99"), "missing");
});

test("arguments and typed text that end in a semicolon reach the worker unchanged", async (t) => {
  const server = tmuxServer(t);
  const tmux = createTmux(server.socket);
  const { paneId } = tmux.launchWindow({
    session: "s",
    name: "w1",
    argv: ["sh", "-c", 'printf "[%s][%s]\\n" "$1" "$2"; cat;', "arg0", "one;", "two\\;"],
  });
  await waitFor("the printf", () => tmux.capture(paneId, 10).includes("[one;][two\\;]"));
  tmux.sendText(paneId, "typed;");
  await waitFor("the typed text", () => tmux.capture(paneId, 10).split("typed;").length >= 3);
  assert.match(server.tmux("show-options", "-w", "-v", "-t", "w1", "remain-on-exit"), /on/);
});

test("typed text that starts with a dash or holds tmux formats is text, and a control character is never sent", async (t) => {
  const server = tmuxServer(t);
  const dir = tempDir(t);
  const tmux = createTmux(server.socket);
  const { paneId } = tmux.launchWindow({ session: "s", name: "w1", argv: ["cat"] });
  const line = `-n #{session_name} #(touch ${join(dir, "PWNED")}) x`;
  tmux.sendText(paneId, line);
  await waitFor("the dash line echoed back", () => tmux.capture(paneId, 10).split(line).length >= 3);
  assert.equal(existsSync(join(dir, "PWNED")), false);
  for (const bad of ["stop\u0003", "quit\u001c", "\u001b[31mred", "c1\u009b"]) {
    assert.throws(
      () => tmux.sendText(paneId, bad),
      (e) => e instanceof TmuxError && /control character/.test(e.message),
    );
  }
  assert.equal(tmux.paneState(paneId, "w1"), "alive", "the worker was not interrupted");
});

test("a window or session name tmux would expand as a format is refused before tmux sees it", (t) => {
  const server = tmuxServer(t);
  const dir = tempDir(t);
  const tmux = createTmux(server.socket);
  for (const input of [
    { session: "s", name: `w#(touch ${join(dir, "PWNED")})` },
    { session: "s#{pane_id}", name: "w1" },
    { session: "-s", name: "w1;" },
  ]) {
    assert.throws(() => tmux.launchWindow({ ...input, argv: ["true"] }), /refusing tmux (window|session) name/);
  }
  assert.equal(existsSync(join(dir, "PWNED")), false);
  assert.equal(tmux.hasSession("s"), false, "nothing was created");
});

test("a server Docket starts keeps only a minimal environment, so later windows inherit none of the caller's secrets", async (t) => {
  const server = tmuxServer(t);
  const tmux = createTmux(server.socket, {
    ...process.env,
    CALLER_SECRET: "s3cret",
    DOCKET_WORKER_ID: "w9",
    DOCKET_RUN_TOKEN: "tok",
  });
  const { paneId } = tmux.launchWindow({
    session: "s",
    name: "w1",
    argv: ["sh", "-c", 'echo "secret=[$CALLER_SECRET] id=[$DOCKET_WORKER_ID]"; sleep 30'],
  });
  await waitFor("the echo", () => /secret=\[\] id=\[\]/.test(tmux.capture(paneId, 5)));
  const global = server.tmux("show-environment", "-g");
  assert.doesNotMatch(global, /CALLER_SECRET|DOCKET_WORKER_ID|DOCKET_RUN_TOKEN/);
  assert.doesNotMatch(server.tmux("show-environment", "-t", "s"), /CALLER_SECRET|DOCKET_/);
});

/** One process per launch; each waits for the common start time `at`, then prints its window id or its error. */
function launchInChild(socket: string, name: string, at: number): Promise<string> {
  const module = new URL("../../src/substrate/tmux.js", import.meta.url).href;
  const code = [
    `const m = await import(${JSON.stringify(module)});`,
    `const tmux = m.createTmux(${JSON.stringify(socket)});`,
    `await new Promise((r) => setTimeout(r, Math.max(0, ${at} - Date.now())));`,
    `try { console.log(tmux.launchWindow({ session: "burst", name: ${JSON.stringify(name)}, argv: ["sleep", "60"] }).windowId); }`,
    `catch (e) { console.log("ERROR " + e.message); }`,
  ].join("\n");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", code], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", () => resolve(out.trim()));
  });
}

test("a burst of concurrent launches all get their own window: tmux allocates the index, none fails with 'in use'", {
  timeout: 180_000,
}, async (t) => {
  const server = tmuxServer(t);
  createTmux(server.socket).launchWindow({ session: "burst", name: "w0", argv: ["sleep", "60"] });
  const size = 16;
  const rounds = 3;
  for (let round = 0; round < rounds; round++) {
    // Every child is loaded before the common start, so the launches really race (the old index picking lost some).
    const at = Date.now() + 3_000;
    const names = Array.from({ length: size }, (_, i) => `w${round * size + i + 1}`);
    const results = await Promise.all(names.map((n) => launchInChild(server.socket, n, at)));
    assert.deepEqual(
      results.filter((r) => !/^@\d+$/.test(r)),
      [],
      "every launch returned a window id",
    );
    assert.equal(new Set(results).size, names.length);
  }
  const windows = server.tmux("list-windows", "-t", "=burst", "-F", "#{window_name}").trim().split("\n");
  assert.equal(windows.length, size * rounds + 1);
  assert.ok(!windows.some((w) => w.startsWith("docket-new-")), "every window took its real name");
});
