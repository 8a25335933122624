// A refused `load`, `preview` or `deliverable delete` of a ref that names nothing changes nothing — not a ledger
// row (the store index included), not a file — and `worker-deliverable:w1:0` says w1 has no version 0.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docket, jsonOf } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { fileTree, ledgerRows } from "../../support/snapshot.js";
import { tempDir } from "../../support/temp.js";
import { tmuxServer } from "../../support/tmux.js";

const BAD_REFS = ["d0", "d7", "deliverable:x:0", "deliverable:x:1", "../../etc/passwd", "x", "last"];

for (const withStore of [false, true]) {
  test(`refused store calls write nothing (${withStore ? "a store with one record" : "a home that never saved"})`, {
    timeout: 120_000,
  }, (t) => {
    const repo = gitRepo(tempDir(t));
    const home = join(tempDir(t), "home");
    const env = cliEnv({ HOME: tempDir(t), DOCKET_HOME: home, DOCKET_TMUX_SOCKET: tmuxServer(t).socket });
    jsonOf(docket({ env, cwd: repo }, "item", "add", "a todo", "--json")); // the ledger exists
    if (withStore) {
      writeFileSync(join(repo, "..", "note.md"), "# A note\n\nkept for later\n");
      jsonOf(
        docket(
          { env, cwd: repo },
          "save",
          "--author",
          join(repo, "..", "note.md"),
          "--outcome",
          "findings",
          "--summary",
          "a note",
          "--json",
        ),
      );
      jsonOf(docket({ env, cwd: repo }, "deliverables", "--json"));
    }
    const rows = ledgerRows(join(home, "ledger.sqlite"));
    const files = fileTree(home);
    for (const ref of BAD_REFS) {
      if (withStore && ref === "last") continue; // names the saved record
      for (const args of [
        ["load", ref],
        ["preview", ref],
        ["deliverable", "delete", ref, "--yes"],
      ]) {
        const r = docket({ env, cwd: repo }, ...args, "--json");
        assert.equal(r.code, 1, `${args.join(" ")}: ${r.stdout}${r.stderr}`);
        assert.ok(r.json?.error?.code, `${args.join(" ")} refuses with a code`);
      }
    }
    assert.deepEqual(ledgerRows(join(home, "ledger.sqlite")), rows, "no ledger row changed");
    assert.deepEqual(fileTree(home), files, "no file changed");
  });
}

test("promote worker-deliverable:w1:0 says w1 has no version 0", { timeout: 60_000 }, (t) => {
  const repo = gitRepo(tempDir(t));
  const env = cliEnv({
    HOME: tempDir(t),
    DOCKET_HOME: join(tempDir(t), "home"),
    DOCKET_TMUX_SOCKET: tmuxServer(t).socket,
  });
  for (const ref of ["worker-deliverable:w1:0", "w1:v0", "w1@v0"]) {
    const error = jsonOf(docket({ env, cwd: repo }, "promote", ref, "--yes", "--json"), 1).error;
    assert.equal(error.code, "no-such-version", ref);
    assert.match(error.message, /^w1 has no version 0/);
  }
});
