// Claim: what every surface shows of a frozen change set is what git reads in its bytes: a hunk hidden after a binary
// section is refused at done (a worker's own git) and at promote (a rewritten sidecar); a worker's attributes cannot
// freeze text as binary, text frozen as binary is shown decoded with a warning, and links show as links.

import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../support/git.js";
import {
  checkoutBytes,
  decisions,
  freezeTextAsBinary,
  hostileGround,
  hostileWorker,
} from "../support/hostile-worker.js";
import { execFileSync } from "node:child_process";

const T = { timeout: 180_000 };
const HIDDEN = '--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-export const b = 2;\n+export const b = "owned";\n';
/** The test's own git, by absolute path, for the worker's fake git to pass through to. */
const realGit = () => execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
const sidecarOf = (home: string, w: string, v = 1) => join(home, "fleet", w, "deliverables", `v${v}.json`);

test(
  "a worker's own git on its PATH that would hide a text hunk after a binary section never runs: the door freezes what git reads, and only that",
  T,
  async (t) => {
    const g = hostileGround(t);
    const w = await hostileWorker(g);
    const bin = join(g.root, "worker-bin");
    mkdirSync(bin);
    const log = join(g.root, "fake-git.log");
    // Every diff it prints gets the traditional hunk appended; everything else is the real git.
    writeFileSync(
      join(bin, "git"),
      `#!/bin/sh\necho run >> '${log}'\nfor a in "$@"; do [ "$a" = diff ] && d=1; done\nif [ -n "$d" ]; then '${realGit()}' "$@"; printf '%s' '${HIDDEN}'; exit 0; fi\nexec '${realGit()}' "$@"\n`,
    );
    chmodSync(join(bin, "git"), 0o755);
    writeFileSync(join(w.workspace, "logo.bin"), Buffer.from([0, 1, 2, 3, 0, 9]));
    const done = w.done("a new logo", { path: `${bin}:${g.env.PATH}` });
    assert.equal(done.code, 0, done.stderr + done.stdout);
    const frozen = JSON.parse(readFileSync(sidecarOf(g.home, w.id), "utf8"));
    assert.deepEqual(
      frozen.changeSet.files.map((f: { path: string }) => f.path),
      ["logo.bin"],
      "only what the workspace holds, as git reads it",
    );
    assert.ok(!frozen.changeSet.patch.includes("owned"), "the hidden hunk is nowhere in the frozen patch");
    for (const args of [
      ["ls", "--json"],
      ["attention", "--json"],
      ["verdict", w.id, "--json"],
    ])
      g.human(...args);
    assert.equal(
      existsSync(log),
      false,
      "neither the worker's done (captured in the door) nor the human's verbs ran the worker's git",
    );
  },
);

test(
  "a sidecar whose patch hides a hunk after its binary section (or holds text before its first section) is refused by promote; nothing lands",
  T,
  async (t) => {
    const g = hostileGround(t);
    const w = await hostileWorker(g);
    writeFileSync(join(w.workspace, "logo.bin"), Buffer.from([0, 1, 2, 3, 0, 9]));
    assert.equal(w.done("a new logo").code, 0);
    const path = sidecarOf(g.home, w.id);
    const honest = JSON.parse(readFileSync(path, "utf8"));
    assert.deepEqual(
      honest.changeSet.files.map((f: { path: string }) => f.path),
      ["logo.bin"],
    );
    for (const forged of [honest.changeSet.patch + HIDDEN, `Subject: hello\n\n${honest.changeSet.patch}`]) {
      // The worker rewrites its own sidecar before the human looks (same OS user, around done).
      writeFileSync(
        path,
        `${JSON.stringify({ ...honest, changeSet: { ...honest.changeSet, patch: forged } }, null, 2)}\n`,
      );
      const approved = g.human("approve", w.id, "--json");
      assert.equal(approved.code, 0, approved.stderr);
      const checkout = checkoutBytes(g.project);
      const promoted = g.human("promote", w.id, "--yes", "--json");
      assert.equal(promoted.code, 1, promoted.stderr + promoted.stdout);
      assert.equal(promoted.json.error.code, "patch-integrity-failed");
      assert.deepEqual(checkoutBytes(g.project), checkout, "the hidden hunk never reached the human's checkout");
      assert.equal(readFileSync(join(g.project, "src/b.ts"), "utf8"), "export const b = 2;\n");
    }
    assert.deepEqual(
      decisions(g).filter((d) => !d.startsWith("approve human")),
      [],
      "no promotion was recorded",
    );
  },
);

test(
  "the worker's own info/attributes (or .gitattributes) marking a text file -diff does not freeze its edit as binary",
  T,
  async (t) => {
    const g = hostileGround(t);
    const w = await hostileWorker(g);
    const attributes = join(w.workspace, git(w.workspace, "rev-parse", "--git-path", "info/attributes").trim());
    mkdirSync(join(attributes, ".."), { recursive: true });
    writeFileSync(attributes, "src/b.ts -diff\n");
    writeFileSync(join(w.workspace, ".gitattributes"), "src/a.ts binary\n");
    writeFileSync(join(w.workspace, "src/a.ts"), "export const a = 3;\n");
    writeFileSync(join(w.workspace, "src/b.ts"), "export const b = 3;\n");
    const done = w.done("a and b are three");
    assert.equal(done.code, 0, done.stderr + done.stdout);
    const cs = JSON.parse(readFileSync(sidecarOf(g.home, w.id), "utf8")).changeSet;
    assert.deepEqual(cs.files, [
      { path: ".gitattributes", additions: 1, deletions: 0 },
      { path: "src/a.ts", additions: 1, deletions: 1 },
      { path: "src/b.ts", additions: 1, deletions: 1 },
    ]);
    assert.ok(
      cs.patch.includes("+export const b = 3;\n") && cs.patch.includes("+export const a = 3;\n"),
      "both edits are text in the frozen patch",
    );
    const diff = g.human("diff", w.id);
    assert.ok(diff.stdout.includes("+export const b = 3;"), diff.stdout);
  },
);

test("a text file frozen as a binary patch is shown decoded, with a warning, on the card", T, async (t) => {
  const g = hostileGround(t);
  const w = await hostileWorker(g);
  // One non-UTF-8 file makes the whole change set a binary patch (it must survive JSON): b.ts is text on both sides.
  writeFileSync(join(w.workspace, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  writeFileSync(join(w.workspace, "src/b.ts"), "export const b = 3;\n");
  assert.equal(w.done("b is three").code, 0);
  const card = g.human("verdict", w.id, "--json");
  assert.equal(card.code, 0, card.stderr);
  const b = JSON.parse(readFileSync(sidecarOf(g.home, w.id), "utf8")).changeSet.files.find(
    (f: { path: string }) => f.path === "src/b.ts",
  );
  assert.equal(b.binary, true);
  assert.equal(b.decoded, "@@ -1 +1 @@\n-export const b = 2;\n+export const b = 3;\n");
  assert.deepEqual([b.additions, b.deletions], [1, 1]);
  const text = g.human("verdict", w.id).stdout;
  assert.match(text, /! src\/b\.ts is text at the base but frozen as a binary patch; decoded change:/);
  assert.match(text, /\+export const b = 3;/);
});

test("a symlink and a gitlink show as such on the card, with their mode and target", T, async (t) => {
  const g = hostileGround(t);
  const w = await hostileWorker(g);
  symlinkSync("../../../../etc/hosts", join(w.workspace, "src/link"));
  const sub = join(w.workspace, "vendor", "sub");
  mkdirSync(sub, { recursive: true });
  git(sub, "init", "-q");
  git(sub, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-q", "--allow-empty", "-m", "s");
  const commit = git(sub, "rev-parse", "HEAD").trim();
  const done = w.done("a link and a module");
  assert.equal(done.code, 0, done.stderr + done.stdout);
  const files = JSON.parse(readFileSync(sidecarOf(g.home, w.id), "utf8")).changeSet.files;
  assert.deepEqual(
    files.map((f: { path: string; special?: unknown }) => [f.path, f.special]),
    [
      ["src/link", { kind: "symlink", mode: "120000", target: "../../../../etc/hosts" }],
      ["vendor/sub", { kind: "gitlink", mode: "160000", target: `commit ${commit}` }],
    ],
  );
  const text = g.human("verdict", w.id).stdout;
  assert.ok(text.includes('src/link: symlink 120000 -> "../../../../etc/hosts"'), text);
  assert.ok(text.includes(`vendor/sub: gitlink 160000 -> "commit ${commit}"`), text);
});

test(
  "docket diff shows a text file frozen as a binary patch decoded, with a one-line warning naming it; --json keeps the frozen bytes",
  T,
  async (t) => {
    const g = hostileGround(t);
    const w = await hostileWorker(g);
    freezeTextAsBinary(w, "export const b = 3;\n");
    assert.equal(w.done("b is three").code, 0);
    const frozen: string = JSON.parse(readFileSync(sidecarOf(g.home, w.id), "utf8")).changeSet.patch;
    assert.ok(!frozen.includes("+export const b = 3;"), "the frozen patch carries b.ts as a binary section");
    const diff = g.human("diff", w.id);
    assert.equal(diff.code, 0, diff.stderr);
    assert.ok(diff.stdout.includes("\n-export const b = 2;\n+export const b = 3;\n"), diff.stdout);
    assert.ok(
      diff.stdout.includes("latin1.txt") && diff.stdout.includes("GIT binary patch"),
      "the file that is not text stays a binary section",
    );
    const warnings = diff.stderr.split("\n").filter((l) => l.includes("frozen as a binary patch"));
    assert.deepEqual(warnings, [
      "! src/b.ts is text at the base but frozen as a binary patch; shown decoded (--json keeps the frozen bytes)",
    ]);
    // What is shown is still the same change: it applies to the human's checkout as the frozen bytes do.
    assert.doesNotThrow(
      () => execFileSync("git", ["apply", "--check", "-"], { cwd: g.project, input: diff.stdout }),
      "the decoded diff applies",
    );
    const json = g.human("diff", w.id, "--json");
    assert.equal(json.json.patch, frozen, "--json prints the frozen bytes");
  },
);
