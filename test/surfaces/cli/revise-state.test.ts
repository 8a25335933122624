// A version the human sent back has visible state: after `docket revise`, `ls` (text and --json) shows the worker as
// `revising`, `show` names the review note with its revise decision and note, and the next version makes it `ready`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonOf } from "../../support/docket-cli.js";
import { cliGround } from "../../support/cli-workers.js";
import { waitFor } from "../../support/wait.js";
import { UNGATED_KIND, writeUngatedKind } from "../../support/scripted-pi.js";

const write = (content: string) => ({
  text: "Editing.",
  toolCall: { name: "write", arguments: { path: "hello.txt", content } },
});
const done = (summary: string) => ({
  text: "Done.",
  toolCall: { name: "docket_done", arguments: { outcome: "completed", summary } },
});
const STEPS = [
  write("hello, world\n"),
  done("hello.txt greets the world"),
  { text: "Waiting for review." },
  // The revision's first reply comes late, so the revising state can be read before the next version lands.
  { ...write("greetings, world\n"), delayMs: 15_000 },
  done("hello.txt now says greetings"),
];

test("revise shows: ls says revising, show names the note, the next version is ready again", {
  timeout: 180_000,
}, async (t) => {
  const { root, home, run } = cliGround(t, { homeDir: "home", files: { "hello.txt": "hello\n" } });
  writeUngatedKind(home);
  writeFileSync(join(root, "steps.json"), JSON.stringify(STEPS));
  assert.equal(
    jsonOf(
      run(
        "spawn",
        "--scripted",
        join(root, "steps.json"),
        "--as",
        UNGATED_KIND,
        "--wait",
        "--json",
        "Change hello.txt",
      ),
    ).waited,
    "ready",
  );
  assert.equal(jsonOf(run("ls", "--json")).workers[0].state, "ready", "before the revise it waits for judgment");

  const revised = jsonOf(run("revise", "w1", "--json", "Say greetings instead\nand keep the comma"));
  const decision = revised.decision.id as string;

  const text = run("ls");
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout.split("\n").find((l) => l.startsWith("w1 ")) ?? "", /^w1 +\S +revising /, text.stdout);
  assert.equal(jsonOf(run("ls", "--json")).workers[0].state, "revising");

  const shown = run("show", "w1");
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, new RegExp(`^w1 · ${UNGATED_KIND} · revising `, "m"));
  assert.match(
    shown.stdout,
    new RegExp(`^  message m\\d+: (queued|delivered|read) — revise ${decision}: "Say greetings instead"$`, "m"),
    shown.stdout,
  );
  const message = jsonOf(run("show", "w1", "--json")).messages.find((m: { kind: string }) => m.kind === "review_note");
  assert.equal(message.what, `revise ${decision}: "Say greetings instead"`);

  const next = await waitFor(
    "the next version",
    () => {
      const row = jsonOf(run("ls", "--json")).workers[0];
      return row.deliverable?.endsWith(":2") ? row : undefined;
    },
    90_000,
    1000,
  );
  assert.equal(next.state, "ready", "a new version waits for judgment again");
});
