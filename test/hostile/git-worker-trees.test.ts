// Claim: nothing a worker plants in its own workspace makes the human's git run a program or touch the human's checkout:
// a `.git` pointing at a worker-made git dir (fsmonitor, worktree), a `.git` directory, and config, hooks, filters and
// diff drivers written with the worker's own `git config` are refused by name or ignored by every human verb.

import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { git } from "../support/git.js";
import {
  checkoutBytes,
  decisions,
  fakeGitDir,
  hostileGround,
  hostileWorker,
  markerScript,
  type HostileGround,
  type HostileWorker,
} from "../support/hostile-worker.js";

const T = { timeout: 180_000 };

/** The worker edits a file, publishes v1, and the human approves it: the ground each attack starts from. */
async function approvedWorker(g: HostileGround): Promise<HostileWorker> {
  const w = await hostileWorker(g);
  writeFileSync(join(w.workspace, "src/a.ts"), "export const a = 10;\n");
  const done = w.done("a is ten");
  assert.equal(done.code, 0, done.stderr + done.stdout);
  const approved = g.human("approve", w.id, "--json");
  assert.equal(approved.code, 0, approved.stderr + approved.stdout);
  return w;
}

function assertRefused(r: { code: number; json: any; stderr: string; stdout: string }, code: string): void {
  assert.equal(r.code, 1, `${r.stderr}${r.stdout}`);
  assert.equal(r.json?.error?.code, code, r.stdout);
}

test(
  "a .git naming a worker-made git dir with core.fsmonitor: promote, discard and delete refuse by name, broadcast runs nothing",
  T,
  async (t) => {
    const g = hostileGround(t);
    const w = await approvedWorker(g);
    const ref = `worker-deliverable:${w.id}:1`;
    const script = markerScript(g, w.workspace);
    const fake = fakeGitDir(g, w, `\tfsmonitor = ${script}\n`);
    writeFileSync(join(w.workspace, ".git"), `gitdir: ${fake}\n`);
    const checkout = checkoutBytes(g.project);

    assertRefused(g.human("promote", w.id, "--yes", "--json"), "workspace-git-tampered");
    assertRefused(g.human("discard", w.id, "--yes", "--json"), "workspace-git-tampered");
    assertRefused(g.human("delete", w.id, "--yes", "--json"), "workspace-git-tampered");
    const broadcast = g.human("broadcast", "--json", "src/a.ts", "changed");
    assert.ok(broadcast.code === 0 || broadcast.code === 1, broadcast.stderr);

    assert.equal(existsSync(g.marker), false, "the planted fsmonitor never ran");
    assert.deepEqual(checkoutBytes(g.project), checkout, "the human's checkout is byte-identical");
    assert.deepEqual(decisions(g), [`approve human ${ref}`], "the ledger holds only the human's own approval");
    const message = g.human("promote", w.id, "--yes").stderr;
    assert.match(message, /\.git is no longer what Docket made at spawn/);
  },
);

test(
  "a worker-made git dir with core.worktree = the human's checkout: discard refuses and the checkout keeps every edit",
  T,
  async (t) => {
    const g = hostileGround(t);
    const w = await approvedWorker(g);
    const fake = fakeGitDir(g, w, `\tworktree = ${g.project}\n`);
    writeFileSync(join(w.workspace, ".git"), `gitdir: ${fake}\n`);
    const checkout = checkoutBytes(g.project);
    assertRefused(g.human("discard", w.id, "--yes", "--json"), "workspace-git-tampered");
    assertRefused(g.human("promote", w.id, "--yes", "--json"), "workspace-git-tampered");
    assert.deepEqual(checkoutBytes(g.project), checkout, "no reset and no clean reached the human's checkout");
    assert.ok(existsSync(join(g.project, "notes.txt")), "the human's untracked file is still there");
  },
);

test(
  "a .git replaced by a directory of the worker's making (fsmonitor in its config) is refused before any git runs",
  T,
  async (t) => {
    const g = hostileGround(t);
    const w = await approvedWorker(g);
    const script = markerScript(g, w.workspace);
    const fake = fakeGitDir(g, w, `\tfsmonitor = ${script}\n\tworktree = ${g.project}\n`);
    rmSync(join(w.workspace, ".git"));
    renameSync(fake, join(w.workspace, ".git"));
    const checkout = checkoutBytes(g.project);
    assertRefused(g.human("discard", w.id, "--yes", "--json"), "workspace-git-tampered");
    assertRefused(g.human("promote", w.id, "--yes", "--json"), "workspace-git-tampered");
    assertRefused(g.human("delete", w.id, "--yes", "--json"), "workspace-git-tampered");
    assertRefused(
      w.run(["worker", "done", "--outcome", "completed", "--summary", "again", "--json"], { input: "v2\n" }),
      "workspace-git-tampered",
    );
    assert.equal(existsSync(g.marker), false);
    assert.deepEqual(checkoutBytes(g.project), checkout);
    assert.equal(existsSync(join(g.home, "fleet", w.id, "deliverables", "v2.json")), false, "nothing was frozen");
    // The human's way out still works: delete --force removes the hostile tree without running git in it.
    const forced = g.human("delete", w.id, "--yes", "--force", "--json");
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(existsSync(g.marker), false);
  },
);

test(
  "fsmonitor, hooks, filters, textconv and an external diff set with the worker's own git config run nowhere: done, verdict, diff, promote, discard, a later spawn",
  T,
  async (t) => {
    const g = hostileGround(t);
    const w = await hostileWorker(g);
    const script = markerScript(g, w.workspace, ".planted.sh");
    const hooks = join(w.workspace, ".hooks");
    mkdirSync(hooks);
    for (const hook of [
      "post-checkout",
      "reference-transaction",
      "pre-commit",
      "post-commit",
      "post-index-change",
      "fsmonitor-watchman",
    ])
      markerScript(g, hooks, hook);
    // `git config` in a worktree writes the repository's shared config: the worker plants programs there.
    for (const [key, value] of [
      ["core.fsmonitor", script],
      ["core.hooksPath", hooks],
      ["filter.evil.clean", script],
      ["filter.evil.smudge", script],
      ["filter.evil.required", "true"],
      ["diff.evil.textconv", script],
      ["diff.evil.command", script],
      ["diff.external", script],
      ["core.pager", script],
    ] as const)
      git(w.workspace, "config", key, value);
    writeFileSync(join(w.workspace, ".gitattributes"), "* filter=evil diff=evil\n");
    writeFileSync(join(w.workspace, "src/a.ts"), "export const a = 10;\n");
    const checkout = checkoutBytes(g.project);

    const done = w.done("a is ten");
    assert.equal(done.code, 0, `done: ${done.stderr}${done.stdout}`);
    assert.equal(existsSync(g.marker), false, "the capture ran no planted program");
    for (const args of [
      ["verdict", w.id, "--json"],
      ["diff", w.id],
      ["approve", w.id, "--json"],
    ]) {
      const r = g.human(...args);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
    }
    assert.deepEqual(checkoutBytes(g.project), checkout, "reviewing touched nothing");
    const promoted = g.human("promote", w.id, "--yes", "--json");
    assert.equal(promoted.code, 0, `promote: ${promoted.stderr}${promoted.stdout}`);
    assert.equal(
      existsSync(g.marker),
      false,
      "promotion (apply, parent checks, workspace reset) ran no planted program",
    );
    const discard = g.human("discard", w.id, "--yes", "--json");
    assert.equal(discard.code, 0, `discard: ${discard.stderr}${discard.stdout}`);
    const next = g.human("spawn", "--agent", "command", "--cmd", "sleep 60", "--yes", "--json", "another task");
    assert.equal(next.code, 0, `spawn: ${next.stderr}${next.stdout}`);
    assert.equal(existsSync(g.marker), false, "a later spawn (worktree add, baseline commit) ran no planted hook");
    assert.deepEqual(
      decisions(g).map((d) => d.split(" ").slice(0, 2).join(" ")),
      ["approve human", "promote human", "discard human"],
    );
  },
);

test(
  "a combined promotion lands, runs nothing a source worker planted in its .git, and leaves that workspace as it is",
  T,
  async (t) => {
    const g = hostileGround(t);
    const w1 = await hostileWorker(g, "change a");
    const w2 = await hostileWorker(g, "change b");
    writeFileSync(join(w1.workspace, "src/a.ts"), "export const a = 10;\n");
    writeFileSync(join(w2.workspace, "src/b.ts"), "export const b = 20;\n");
    assert.equal(w1.done("a is ten").code, 0);
    assert.equal(w2.done("b is twenty").code, 0);
    const script = markerScript(g, w1.workspace);
    const fake = fakeGitDir(g, w1, `\tfsmonitor = ${script}\n\tworktree = ${g.project}\n`);
    writeFileSync(join(w1.workspace, ".git"), `gitdir: ${fake}\n`);
    const combined = g.human("combine", w1.id, w2.id, "--json");
    assert.equal(combined.code, 0, combined.stderr + combined.stdout);
    assert.equal(combined.json.outcome, "combined");
    const ref: string = combined.json.deliverable.ref;
    const promoted = g.human("promote", ref, "--approve", "--yes");
    assert.equal(promoted.code, 0, promoted.stderr + promoted.stdout);
    assert.equal(existsSync(g.marker), false, "no planted fsmonitor ran");
    assert.match(
      promoted.stdout + promoted.stderr,
      new RegExp(`${w1.id}'s workspace was left as it is \\(.*\\.git is no longer what Docket made at spawn`),
      promoted.stdout,
    );
    assert.equal(readFileSync(join(g.project, "src/a.ts"), "utf8"), "export const a = 10;\n");
    assert.equal(
      readFileSync(join(g.project, "notes.txt"), "utf8"),
      "my untracked notes\n",
      "the human's untracked file is untouched",
    );
    assert.equal(
      readFileSync(join(g.project, "README.md"), "utf8"),
      "hello, work in progress\n",
      "the human's uncommitted edit is untouched",
    );
  },
);

test(
  "broadcast names a worker whose .git is not Docket's, with the refusal code (text, --json, --dry-run), and runs nothing in its tree",
  T,
  async (t) => {
    const g = hostileGround(t);
    const hostile = await hostileWorker(g, "change a");
    const honest = await hostileWorker(g, "change a too");
    writeFileSync(join(hostile.workspace, "src/a.ts"), "export const a = 10;\n");
    writeFileSync(join(honest.workspace, "src/a.ts"), "export const a = 11;\n");
    const script = markerScript(g, hostile.workspace);
    writeFileSync(
      join(hostile.workspace, ".git"),
      `gitdir: ${fakeGitDir(g, hostile, `\tfsmonitor = ${script}\n\tworktree = ${g.project}\n`)}\n`,
    );
    const checkout = checkoutBytes(g.project);

    const dry = g.human("broadcast", "--dry-run", "--json", "src/a.ts", "changed");
    assert.equal(dry.code, 0, dry.stderr + dry.stdout);
    assert.deepEqual(
      dry.json.refused.map((r: { worker: string; code: string }) => [r.worker, r.code]),
      [[hostile.id, "workspace-git-tampered"]],
    );
    assert.match(dry.json.refused[0].message, /\.git is no longer what Docket made at spawn/);
    assert.ok(
      dry.json.rows.some((r: { worker: string; band: string }) => r.worker === honest.id && r.band === "affected"),
      "the honest worker's live edit still counts",
    );
    const text = g.human("broadcast", "--dry-run", "src/a.ts", "changed");
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      new RegExp(`^! ${hostile.id}: workspace-git-tampered: its live edits were left out`, "m"),
      text.stdout,
    );
    const sent = g.human("broadcast", "--yes", "--json", "src/a.ts", "changed");
    assert.equal(sent.code, 0, sent.stderr + sent.stdout);
    assert.deepEqual(
      sent.json.refused.map((r: { worker: string }) => r.worker),
      [hostile.id],
    );
    assert.deepEqual(
      sent.json.sent.map((s: { worker: string }) => s.worker),
      [honest.id],
    );

    assert.equal(existsSync(g.marker), false, "no planted fsmonitor ran");
    assert.deepEqual(checkoutBytes(g.project), checkout, "the human's checkout is byte-identical");
  },
);

test(
  "a combined promotion runs no merge driver or filter a worker planted in the shared config and info/attributes (its patch's .gitattributes naming them)",
  T,
  async (t) => {
    const g = hostileGround(t);
    writeFileSync(join(g.project, "src/c.ts"), "one\ntwo\nthree\nfour\nfive\n");
    git(g.project, "add", "src/c.ts");
    git(g.project, "-c", "user.name=h", "-c", "user.email=h@h", "commit", "-qm", "c");
    const w1 = await hostileWorker(g, "change the top of c");
    const w2 = await hostileWorker(g, "change the bottom of c");
    // w1 plants with its own git: the driver programs in the config its worktree shares with the human's checkout, and
    // the common dir's info/attributes (its `--git-path info/attributes`) naming them for every file.
    const driver = join(g.root, "driver.sh");
    writeFileSync(driver, `#!/bin/sh\ntouch '${g.marker}'\nexit 0\n`);
    chmodSync(driver, 0o755);
    for (const [key, value] of [
      ["merge.evil.driver", `${driver} %O %A %B`],
      ["filter.evil.clean", driver],
      ["filter.evil.smudge", driver],
      ["diff.evil.textconv", driver],
    ] as const)
      git(w1.workspace, "config", key, value);
    const attributes = resolve(w1.workspace, git(w1.workspace, "rev-parse", "--git-path", "info/attributes").trim());
    mkdirSync(dirname(attributes), { recursive: true });
    writeFileSync(attributes, "* merge=evil filter=evil diff=evil\n");
    writeFileSync(join(w1.workspace, "src/c.ts"), "ONE\ntwo\nthree\nfour\nfive\n");
    writeFileSync(join(w2.workspace, "src/c.ts"), "one\ntwo\nthree\nfour\nFIVE\n");
    writeFileSync(join(w2.workspace, ".gitattributes"), "src/*.ts merge=evil filter=evil diff=evil\n");
    assert.equal(w1.done("top").code, 0);
    assert.equal(w2.done("bottom").code, 0);
    const before = checkoutBytes(g.project);

    const combined = g.human("combine", w1.id, w2.id, "--json");
    assert.equal(combined.code, 0, combined.stderr + combined.stdout);
    assert.equal(existsSync(g.marker), false, "the merge ran no planted merge driver");
    assert.equal(combined.json.outcome, "combined", "git's own text merge joined both edits");
    const promoted = g.human("promote", combined.json.deliverable.ref, "--approve", "--yes", "--json");
    assert.equal(promoted.code, 0, promoted.stderr + promoted.stdout);
    assert.equal(existsSync(g.marker), false, "the promotion (checks and apply in the checkout) ran no planted filter");
    assert.equal(readFileSync(join(g.project, "src/c.ts"), "utf8"), "ONE\ntwo\nthree\nfour\nFIVE\n");
    const after = checkoutBytes(g.project);
    const changed = Object.keys({ ...before, ...after })
      .filter((k) => before[k] !== after[k])
      .sort();
    assert.deepEqual(changed, [".gitattributes", "src/c.ts"], "only the combined change landed");
  },
);
