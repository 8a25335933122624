// `ls` has a header row, and every fact its text shows is in `ls --json`: a worker whose files landed under it shows
// `base moved · N files` in the text and carries the same files in its JSON row, with its age. `verdict` counts its queue.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { docket, jsonOf } from "../../support/docket-cli.js";
import { cliGround } from "../../support/cli-workers.js";
import { UNGATED_KIND, writeUngatedKind } from "../../support/scripted-pi.js";

const stepsWriting = (content: string) => [
  { text: "Editing.", toolCall: { name: "write", arguments: { path: "hello.txt", content } } },
  {
    text: "Done.",
    toolCall: { name: "docket_done", arguments: { outcome: "completed", summary: `hello.txt says ${content.trim()}` } },
  },
];

test("ls --json carries the base-moved files and the age the text shows", { timeout: 180_000 }, (t) => {
  const { root, repo, home, env } = cliGround(t, { homeDir: "home", files: { "hello.txt": "hello\n" } });
  writeUngatedKind(home); // these workers write without a plan
  for (const [name, content] of [
    ["a.json", "hello, world\n"],
    ["b.json", "hi there\n"],
  ] as const) {
    writeFileSync(join(root, name), JSON.stringify(stepsWriting(content)));
    assert.equal(
      jsonOf(
        docket(
          { env, cwd: repo },
          "spawn",
          "--scripted",
          join(root, name),
          "--as",
          UNGATED_KIND,
          "--wait",
          "--json",
          `Change hello.txt (${name})`,
        ),
      ).waited,
      "ready",
    );
  }
  const queue = docket({ env, cwd: repo }, "verdict");
  assert.equal(queue.code, 0, queue.stderr);
  assert.match(queue.stdout.split("\n")[0]!, /^2 in the queue \(/, "the queue says how many cards follow");
  jsonOf(docket({ env, cwd: repo }, "promote", "w1", "--approve", "--yes", "--json"));

  const text = docket({ env, cwd: repo }, "ls");
  assert.equal(text.code, 0, text.stderr);
  const lines = text.stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /^worker +state +kind +age +cost +task/, "a header row names the columns");
  const w2 = lines.find((l) => l.startsWith("w2 "));
  assert.match(w2 ?? "", /base moved · 1 file$/, text.stdout);

  const rows = jsonOf(docket({ env, cwd: repo }, "ls", "--json")).workers as {
    worker: string;
    age: string | null;
    baseMoved: { files: string[]; refs: string[] } | null;
  }[];
  const row = rows.find((r) => r.worker === "w2")!;
  assert.deepEqual(row.baseMoved?.files, ["hello.txt"]);
  assert.deepEqual(row.baseMoved?.refs, ["worker-deliverable:w1:1"]);
  assert.match(
    row.age ?? "",
    /^[0-9]+[smhd]$/,
    "the age column's value (it moves between two calls, so only its form is compared)",
  );
});
