// `docket kinds` end to end: the real CLI over a temp home with user kinds and a temp git repo with project kinds.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { gitRepo, writeFiles } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";
import { assertExit } from "../../support/docket-cli.js";

const BIN = resolve(dirname(new URL(import.meta.url).pathname), "../../../../bin/docket.js");

function docket(cwd: string, home: string, ...args: string[]) {
  const tmp = join(home, "tmp");
  mkdirSync(tmp, { recursive: true });
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH,
      HOME: home,
      DOCKET_HOME: join(home, "docket"),
      PI_CODING_AGENT_DIR: join(home, "pi"),
      TMPDIR: tmp,
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function fixture(t: Parameters<typeof tempDir>[0]) {
  const home = tempDir(t);
  const repo = gitRepo(tempDir(t), { "README.md": "hi\n" });
  writeFiles(join(home, "docket", "kinds"), {
    "reviewer.md":
      "---\nname: reviewer\ndescription: Reviews diffs.\nread_only: true\nrights: [read code, run tests]\nmodel: anthropic/claude-sonnet-4\n---\nBe specific.\n",
    "shared.md": "---\nname: shared\nread_only: true\n---\n",
    "broken.md": "---\nname: broken\nplan_gate: sometimes\n---\n",
    ".draft.md": "not a kind at all",
  });
  writeFiles(join(repo, ".docket", "kinds"), {
    "shared.md": "---\nname: shared\nread_only: true\nplan_gate: true\n---\n",
    "scout.md": "---\nname: scout\nread_only: false\n---\n",
    "fixer.md": "---\nname: fixer\ncan_spawn: true\n---\n",
  });
  return { home, repo };
}

test("docket kinds --json lists built-in, user and project kinds in the contract shape; a broken file is reported, not fatal", (t) => {
  const { home, repo } = fixture(t);
  const r = docket(join(repo), home, "kinds", "--json");
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as { kinds: Record<string, unknown>[] };
  assert.deepEqual(Object.keys(doc), ["kinds"]);
  for (const k of doc.kinds) assert.deepEqual(Object.keys(k), ["name", "source", "readOnly", "planGate", "warnings"]);
  assert.deepEqual(
    doc.kinds.map((k) => `${k.name}/${k.source}`),
    [
      "default/builtin",
      "scout/builtin",
      "patcher/builtin",
      "architect/builtin",
      "implementer/builtin",
      "reviewer/user",
      "fixer/project",
      "shared/project",
    ],
  );
  const byName = new Map(doc.kinds.map((k) => [k.name, k]));
  assert.deepEqual(byName.get("reviewer"), {
    name: "reviewer",
    source: "user",
    readOnly: true,
    planGate: false,
    warnings: [
      "deprecated execution frontmatter (model); move execution choices to docket spawn flags or worker config before the next major release.",
    ],
  });
  assert.deepEqual(byName.get("fixer")!.warnings, ["can_spawn ignored; worker creation is human-only."]);
  assert.deepEqual(byName.get("shared"), {
    name: "shared",
    source: "project",
    readOnly: true,
    planGate: true,
    warnings: [`replaces the user kind from ${join(home, "docket", "kinds", "shared.md")} shared`],
  });
  assert.ok(!byName.has("broken"));
  assert.match(r.stderr, /warning: kind file .*broken\.md skipped: plan_gate must be true or false, got "sometimes"/);
  // A cloned repository may tighten a kind but never loosen one: the project's writable scout is skipped.
  assert.equal(byName.get("scout")!.source, "builtin");
  assert.equal(byName.get("scout")!.readOnly, true);
  assert.match(r.stderr, /scout\.md skipped: project kind scout would lift read-only/);
});

test("docket kinds from a subdirectory still finds the project's kinds at the repository root", (t) => {
  const { home, repo } = fixture(t);
  mkdirSync(join(repo, "src", "deep"), { recursive: true });
  const r = docket(join(repo, "src", "deep"), home, "kinds", "--json");
  assert.equal(r.code, 0, r.stderr);
  assert.ok((JSON.parse(r.stdout) as { kinds: { name: string }[] }).kinds.some((k) => k.name === "fixer"));
});

test("docket kinds prints kinds grouped by source with authority, rights, warnings, skipped files and the spawn hint", (t) => {
  const { home, repo } = fixture(t);
  const r = docket(repo, home, "kinds");
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  assert.match(out, /^built-in\n {2}default · plan-gated \(default\)\n/);
  assert.match(out, /\n {2}scout · read-only\n/);
  assert.match(
    out,
    /\nuser \(.*docket\/kinds\)\n {2}reviewer · read-only\n {4}Reviews diffs\.\n {4}rights:\n {6}- read code\n {6}- run tests\n {4}warning: deprecated execution frontmatter \(model\)/,
  );
  assert.match(
    out,
    /\nproject \(.*\.docket\/kinds\)\n {2}fixer · writable\n {4}warning: can_spawn ignored; worker creation is human-only\.\n {2}shared · read-only/,
  );
  assert.match(
    out,
    /\nskipped kind files \(fix them to use them\):\n {2}.*broken\.md: plan_gate must be true or false, got "sometimes"\n/,
  );
  assert.ok(out.trimEnd().endsWith("spawn with: docket spawn --as <kind> <task>  (without --as: default)"));
  assert.doesNotMatch(out, /draft/);
});

test("worker.defaultKind in the user config is what the hint and the listing call the default", (t) => {
  const { home, repo } = fixture(t);
  writeFiles(join(home, "docket"), { "config.json": JSON.stringify({ worker: { defaultKind: "scout" } }) });
  const r = docket(repo, home, "kinds");
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /\n {2}scout · read-only \(default\)\n/);
  assert.match(r.stdout, /\(without --as: scout\)\n$/);
});

test("docket kinds with an extra argument is a usage error and prints nothing on stdout", (t) => {
  const { home, repo } = fixture(t);
  const r = docket(repo, home, "kinds", "everything");
  assertExit(r, 2);
  assert.equal(r.stdout, "");
});
