// The tmux port against a real tmux server on a private socket: windows, env, remain-on-exit, capture, input.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createTmux, paneFromMap, resolveTmuxServerArgs } from "../../src/substrate/tmux.js";
import { tempDir } from "../support/temp.js";
import { tmuxServer } from "../support/tmux.js";
import { waitFor } from "../support/wait.js";

test("the server is chosen from DOCKET_TMUX_SOCKET: a path means -S, a name means -L, unset means the default", () => {
  assert.deepEqual(resolveTmuxServerArgs("/tmp/x/sock"), ["-S", "/tmp/x/sock"]);
  assert.deepEqual(resolveTmuxServerArgs("docket-test-1"), ["-L", "docket-test-1"]);
  assert.deepEqual(resolveTmuxServerArgs(undefined), []);
  assert.deepEqual(resolveTmuxServerArgs(""), []);
});

test("a launched window gets its env, cwd and argv, keeps its pane after exit, and is found by id", async (t) => {
  const server = tmuxServer(t);
  const dir = tempDir(t);
  const tmux = createTmux(server.socket);
  assert.equal(tmux.hasSession("docket-workers"), false);
  const first = tmux.launchWindow({
    session: "docket-workers",
    name: "w1",
    cwd: dir,
    env: { DOCKET_WORKER_ID: "w1", ODD: "it's \"quoted\" $HOME" },
    argv: ["sh", "-c", 'echo "id=$DOCKET_WORKER_ID odd=$ODD pwd=$(pwd)"; exit 4'],
  });
  assert.match(first.windowId, /^@\d+$/);
  assert.match(first.paneId, /^%\d+$/);
  assert.equal(tmux.hasSession("docket-workers"), true);
  await waitFor("the pane to die", () => tmux.paneState(first.paneId, "w1") === "dead");
  const text = tmux.capture(first.paneId, 20);
  assert.match(text, new RegExp(`id=w1 odd=it's "quoted" \\$HOME pwd=${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  assert.equal(server.tmux("show-options", "-w", "-v", "-t", first.windowId, "remain-on-exit").trim(), "on");

  const second = tmux.launchWindow({ session: "docket-workers", name: "w2", cwd: dir, env: {}, argv: ["sleep", "30"] });
  assert.notEqual(second.windowId, first.windowId);
  const panes = tmux.listPanes()!;
  assert.equal(paneFromMap(panes, second.paneId, "w2"), "alive");
  assert.equal(paneFromMap(panes, first.paneId, "w1"), "dead");
  assert.equal(paneFromMap(panes, second.paneId, "w9"), "missing", "a pane in a window of another name is not this worker's");
  assert.equal(tmux.paneState(second.paneId, "w9"), "missing");

  tmux.killWindow(first.windowId);
  assert.equal(tmux.paneState(first.paneId), "missing");
  tmux.killWindow(first.windowId); // killing a gone window is not an error
});

test("one-line text is typed literally and multi-line text arrives as one bracketed paste", async (t) => {
  const server = tmuxServer(t);
  const dir = tempDir(t);
  const tmux = createTmux(server.socket);
  const { paneId } = tmux.launchWindow({ session: "s", name: "w1", cwd: dir, env: {}, argv: ["cat"] });
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

test("arguments, env values and typed text that end in a semicolon reach the worker unchanged", async (t) => {
  const server = tmuxServer(t);
  const dir = tempDir(t);
  const tmux = createTmux(server.socket);
  const { paneId } = tmux.launchWindow({
    session: "s",
    name: "w1",
    cwd: dir,
    env: { V: "value;" },
    argv: ["sh", "-c", 'printf "[%s][%s][%s]\\n" "$V" "$1" "$2"; cat;', "arg0", "one;", "two\\;"],
  });
  await waitFor("the printf", () => tmux.capture(paneId, 10).includes("[value;][one;][two\\;]"));
  tmux.sendText(paneId, "typed;");
  await waitFor("the typed text", () => tmux.capture(paneId, 10).split("typed;").length >= 3);
  assert.match(server.tmux("show-options", "-w", "-v", "-t", "w1", "remain-on-exit"), /on/);
});
