// What `docket tell` delivers: text arrives byte for byte in a command worker's pane and in a real pi
// worker's inbox; a control character other than newline and tab is refused, nothing is queued, the worker lives on.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliGround } from "../../support/cli-workers.js";
import { cliEnv, docket } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { scriptedPi, scriptedModelFlags } from "../../support/scripted-pi.js";
import { tempDir } from "../../support/temp.js";
import { waitFor } from "../../support/wait.js";

/** Tabs, multi-byte characters, tmux formats, shell syntax, quotes, a leading-dash word and two lines. */
const TEXT = `tab\there · ünïcode 🙂 — #(touch PWNED) #{pane_id} a;b 'q' "d" $HOME \\n -dash;\nsecond\tline ✓`;
const CONTROL: [string, string][] = [
  ["hi\u0003", "U+0003"], // Ctrl-C: killed a command worker
  ["quit\u001c", "U+001C"], // Ctrl-\: so did this
  ["clear\u001b[2J", "U+001B"],
  ["del\u007f", "U+007F"],
  ["c1 \u009b31m", "U+009B"],
  ["bell\u0007", "U+0007"],
];

function messages(run: (...args: string[]) => { json: any }, worker: string): unknown[] {
  return run("show", worker, "--json").json.messages;
}

test("a command worker receives told text byte for byte; control characters are refused and the worker keeps running", {
  timeout: 120_000,
}, async (t) => {
  const { repo, home, server, run } = cliGround(t);
  const got = join(home, "got.txt");
  assert.equal(
    run("spawn", "--agent", "command", "--as", "scout", "--cmd", `cat > '${got}'`, "--yes", "listen").code,
    0,
  );
  await waitFor("the worker's pane", () =>
    server.tmux("list-panes", "-a", "-F", "#{window_name} #{pane_dead}").includes("w1 0"),
  );

  for (const [text, codePoint] of CONTROL) {
    const r = run("tell", "w1", text, "--json");
    assert.equal(r.code, 1, text);
    assert.equal(r.json.error.code, "control-character");
    assert.match(
      r.json.error.message,
      new RegExp(
        `control character ${codePoint.replace("+", "\\+")} at character \\d+; only newline and tab are allowed, nothing was sent`,
      ),
    );
  }
  for (const [verb, args] of [
    ["revise", ["w1", "stop\u0003"]],
    ["answer", ["w1", "yes\u001c"]],
  ] as const) {
    assert.equal(run(verb, ...args, "--json").json.error.code, "control-character", `${verb} refuses it too`);
  }
  assert.deepEqual(messages(run, "w1"), [], "nothing was queued");

  const told = run("tell", "w1", TEXT, "--json");
  assert.equal(told.code, 0, told.stdout + told.stderr);
  const dash = run("tell", "w1", "--json", "--", "-starts with a dash");
  assert.equal(dash.code, 0, dash.stdout + dash.stderr);
  const expected = `${TEXT}\n-starts with a dash\n`;
  const received = await waitFor("the text in the worker's file", () => {
    const bytes = existsSync(got) ? readFileSync(got) : Buffer.alloc(0);
    return bytes.length >= Buffer.byteLength(expected) ? bytes : undefined;
  });
  assert.deepEqual(received, Buffer.from(expected, "utf8"), "the worker read exactly the bytes that were told");
  assert.equal(existsSync(join(home, "PWNED")) || existsSync(join(repo, "PWNED")), false);
  assert.match(
    server.tmux("list-panes", "-a", "-F", "#{window_name} #{pane_dead}"),
    /^w1 0$/m,
    "no control byte reached the worker",
  );
});

test("a real pi worker's inbox delivers told text byte for byte, and a control character never reaches it", {
  timeout: 240_000,
}, async (t) => {
  const pi = scriptedPi(t);
  const repo = gitRepo(tempDir(t, "docket-repo-"), { "a.txt": "one\n" });
  const run = (...args: string[]) => docket({ env: cliEnv(pi.vars), cwd: repo }, ...args);
  const log = join(pi.root, "model.log");
  const script = pi.script("listen.json", [{ text: "ready" }, { text: "got it" }]);
  const spawned = run(
    "spawn",
    "--as",
    "scout",
    ...scriptedModelFlags(script),
    "--env",
    `DOCKET_SCRIPTED_MODEL_LOG=${log}`,
    "--yes",
    "--json",
    "listen",
  );
  assert.equal(spawned.code, 0, spawned.stderr + spawned.stdout);
  const calls = () =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { lastUser: string })
      : [];
  await waitFor(
    "the first turn to end",
    () => calls().length >= 1 && run("show", "w1", "--json").json.persistedState === "idle",
    120_000,
  );

  const refused = run("tell", "w1", "stop\u0003now", "--json");
  assert.equal(refused.json.error.code, "control-character");
  assert.deepEqual(messages(run, "w1"), []);

  assert.equal(run("tell", "w1", TEXT, "--json").code, 0);
  const second = await waitFor("the told text to reach the model", () => calls()[1], 120_000);
  assert.equal(second.lastUser, `[docket · from the human]\n${TEXT}`);
  await waitFor(
    "m1 read",
    () => (messages(run, "w1") as { id: string; delivery: string }[]).find((m) => m.id === "m1")?.delivery === "read",
    60_000,
  );
});
