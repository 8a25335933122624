// With sandbox "required", a hostile command worker tries every escape and each fails, leaving the checkout, the other
// worker's workspace and the ledger as they were, while the same worker's own work (edit, commit, test, done) succeeds.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { createServer, type AddressInfo } from "node:net";
import { cliGround } from "../support/cli-workers.js";
import { assertExit, docket, type CliRun } from "../support/docket-cli.js";
import { git } from "../support/git.js";
import { ledgerRows } from "../support/snapshot.js";
import type { TmuxServer } from "../support/tmux.js";
import { waitFor } from "../support/wait.js";

interface Fixture {
  root: string;
  repo: string;
  home: string;
  userHome: string;
  server: TmuxServer;
  env: NodeJS.ProcessEnv;
  run(...args: string[]): CliRun;
}

function fixture(t: { after(fn: () => void): void }, config: Record<string, unknown> = {}): Fixture {
  const g = cliGround(t, {
    prefix: "docket-contain-",
    files: { "a.txt": "one\n", "test.sh": 'test "$(cat a.txt)" = edited\n' },
    userHome: "home",
    // The whole test root is shown read-only, so the planted secrets are hidden by the sandbox's rules, not by /tmp.
    sandbox: { mode: "required" },
    config,
  });
  const userHome = join(g.root, "home");
  mkdirSync(join(userHome, ".ssh"));
  mkdirSync(join(userHome, ".aws"));
  writeFileSync(join(userHome, ".ssh", "id_ed25519"), "PLANTED-SSH-KEY\n");
  writeFileSync(join(userHome, ".aws", "credentials"), "[default]\naws_secret_access_key=PLANTED-AWS\n");
  return { ...g, userHome };
}

function show(f: Fixture, worker: string): any {
  const r = f.run("show", worker, "--json");
  assertExit(r, 0);
  return r.json;
}

async function stateOf(f: Fixture, worker: string, state: string): Promise<any> {
  let last: any;
  try {
    return await waitFor(
      `${worker} ${state}`,
      () => {
        last = show(f, worker);
        if (last.state === "failed") throw new Error(`${worker} failed: ${last.lastError}`);
        return last.state === state ? last : undefined;
      },
      60_000,
      200,
    );
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; last seen ${JSON.stringify(last)}; pane: ${f.run("peek", worker).stdout}`,
    );
  }
}

/** sha256 of every file and link under `dir` (directories as entries), skipping the relative paths `skip` starts with. */
function contentTree(dir: string, skip: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const rel = relative(dir, path);
      if (skip.some((s) => rel === s || rel.startsWith(`${s}/`))) continue;
      const st = lstatSync(path);
      if (st.isDirectory()) {
        out[rel] = `dir ${st.mode}`;
        walk(path);
      } else
        out[rel] = st.isSymbolicLink()
          ? `link ${readlinkSync(path)}`
          : `file ${st.mode} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
    }
  };
  walk(dir);
  return out;
}

/** A script of attempts: each line of the results file says `<name> ESCAPED` or `<name> blocked`. */
function attempts(list: Record<string, string>): string {
  const lines = ["#!/bin/sh", 'out="$TMPDIR/results"', ': > "$out"'];
  for (const [name, cmd] of Object.entries(list))
    lines.push(
      `if ( ${cmd} ) >/dev/null 2>&1; then echo "${name} ESCAPED" >> "$out"; else echo "${name} blocked" >> "$out"; fi`,
    );
  return lines.join("\n");
}

function results(f: Fixture, worker: string): Record<string, string> {
  const text = readFileSync(join(f.home, "fleet", worker, "scratch", "results"), "utf8");
  return Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((l) => l.split(" ") as [string, string]),
  );
}

/** A victim worker with a deliverable, its workspace holding a file only it wrote, left running (its pane open). */
async function victim(f: Fixture): Promise<string> {
  const cmd =
    'echo VICTIM-DATA > victim.txt && echo "victim body" | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary victim; exec sleep 600';
  const r = f.run("spawn", "--agent", "command", "--cmd", cmd, "victim", "--json");
  assertExit(r, 0);
  await stateOf(f, r.json.worker, "ready");
  return r.json.worker;
}

test("a contained hostile worker cannot write your checkout or any of its .git (objects and its worktree's admin dir included), reach another worker, read your secrets, drive tmux or see other processes; its own work still lands", async (t) => {
  const f = fixture(t);
  const w1 = await victim(f);
  const w1Dir = join(f.home, "fleet", w1);
  mkdirSync(join(f.home, "web"), { recursive: true, mode: 0o700 });
  writeFileSync(join(f.home, "web", "0123456789abcdef.json"), '{"secret":"PLANTED-WEB-SECRET"}\n');
  // Docket's own capture adds blobs to the object store, so objects are compared one by one: none changed or went.
  const checkoutBefore = contentTree(f.repo, [".git/objects"]);
  const objectsBefore = contentTree(join(f.repo, ".git", "objects"));
  const victimBefore = contentTree(w1Dir, ["session", "events.ndjson", "pane-tail.txt", "status.json"]);

  const script = join(f.root, "hostile.sh");
  writeFileSync(
    script,
    `${attempts({
      "write-checkout": `echo pwned > ${f.repo}/a.txt`,
      "create-in-checkout": `touch ${f.repo}/planted.txt`,
      "git-config": `echo "[core]\\n\\thooksPath = /tmp" >> ${f.repo}/.git/config`,
      "git-hook": `echo "#!/bin/sh" > ${f.repo}/.git/hooks/post-checkout`,
      "git-alternates": `echo /tmp > ${f.repo}/.git/objects/info/alternates`,
      "delete-repo-object": `o=$(find ${f.repo}/.git/objects -type f -path '*/objects/[0-9a-f][0-9a-f]/*' | head -n1) && test -n "$o" && rm -f "$o" && test ! -e "$o"`,
      "plant-repo-object": `touch ${f.repo}/.git/objects/planted`,
      "move-worktree-head": `for h in ${f.repo}/.git/worktrees/docket-*/HEAD; do echo 0000000000000000000000000000000000000000 > "$h" || exit 1; done`,
      "read-other-workspace": `grep -q VICTIM-DATA ${w1Dir}/workspace/victim.txt`,
      "write-other-workspace": `echo pwned > ${w1Dir}/workspace/a.txt`,
      "read-other-launch-env": `grep -q DOCKET_RUN_TOKEN ${w1Dir}/launch.env`,
      "read-ssh-key": `grep -q PLANTED-SSH-KEY ${f.userHome}/.ssh/id_ed25519`,
      "read-aws-credentials": `grep -q PLANTED-AWS ${f.userHome}/.aws/credentials`,
      "read-web-secret": `cat ${f.home}/web/*.json | grep -q PLANTED-WEB-SECRET`,
      "symlink-out-write": `ln -s ${f.repo}/a.txt out-link && echo pwned > out-link`,
      "symlink-out-read": `ln -s ${w1Dir}/workspace/victim.txt victim-link && grep -q VICTIM-DATA victim-link`,
      "tmux-send-keys": `tmux -L ${f.server.socket} send-keys -t ${w1} "echo PWNED" Enter`,
      "see-other-processes": `cat /proc/[0-9]*/cmdline | tr '\\0' ' ' | grep -q "sleep 6[0]0"`,
    })}
rm -f out-link victim-link
echo edited > a.txt && git add a.txt && git commit -q -m "worker edit" && echo commit >> "$TMPDIR/legit"
mkdir -p "$XDG_CACHE_HOME/tool" "$npm_config_cache" && echo caches >> "$TMPDIR/legit"
sh test.sh && echo test >> "$TMPDIR/legit"
echo "edited a.txt and committed it" | "$DOCKET_NODE" "$DOCKET_BIN" worker done --outcome completed --summary "edited a.txt" && echo done >> "$TMPDIR/legit"
exec sleep 600
`,
  );
  chmodSync(script, 0o755);
  const r = f.run("spawn", "--agent", "command", "--cmd", script, "hostile", "--json");
  assertExit(r, 0);
  const w2 = r.json.worker;
  const shown = await stateOf(f, w2, "ready");
  assert.equal(shown.contained, true);

  const got = results(f, w2);
  const escaped = Object.entries(got)
    .filter(([, v]) => v !== "blocked")
    .map(([k]) => k);
  assert.deepEqual(escaped, [], `escapes that worked: ${escaped.join(", ")}`);
  assert.equal(Object.keys(got).length, 18);
  assert.deepEqual(
    readFileSync(join(f.home, "fleet", w2, "scratch", "legit"), "utf8")
      .trim()
      .split("\n"),
    ["commit", "caches", "test", "done"],
  );

  // w2's own admin dir was made by its spawn after the snapshot, and Docket's capture keeps its private indexes there.
  assert.deepEqual(
    contentTree(f.repo, [".git/objects", `.git/worktrees/docket-${w2}`]),
    checkoutBefore,
    "the checkout and its .git (worktree admin dirs included) are byte-identical",
  );
  assert.equal(
    readFileSync(join(f.repo, ".git", "worktrees", `docket-${w2}`, "HEAD"), "utf8").trim(),
    shown.base,
    "its worktree's HEAD still names the base: the commit is in its own git dir",
  );
  const objectsAfter = contentTree(join(f.repo, ".git", "objects"));
  for (const [name, entry] of Object.entries(objectsBefore))
    assert.equal(objectsAfter[name], entry, `object store entry ${name} unchanged`);
  git(f.repo, "fsck", "--no-progress"); // the human's own git finds a whole repository: the worker's commit is not in it
  assert.deepEqual(
    contentTree(w1Dir, ["session", "events.ndjson", "pane-tail.txt", "status.json"]),
    victimBefore,
    "the other worker's directory is byte-identical",
  );
  const ownGit = { ...process.env, GIT_DIR: join(f.home, "fleet", w2, "git") };
  assert.equal(
    execFileSync("git", ["log", "-1", "--format=%s"], {
      cwd: join(f.home, "fleet", w2, "workspace"),
      env: ownGit,
      encoding: "utf8",
    }).trim(),
    "worker edit",
    "the worker committed in its own git dir",
  );
  const diff = f.run("diff", w2);
  assertExit(diff, 0);
  assert.match(diff.stdout, /\+edited/);
  const listed = f.run("ls", "--all", "--json");
  assert.equal(listed.json.workers.find((w: any) => w.worker === w2)?.contained, true, listed.stdout);

  // Discard puts the workspace back at its base, and the worker's own git dir follows: its HEAD and index name the base.
  assertExit(f.run("discard", w2, "--yes"), 0);
  const inOwnGit = (...args: string[]) =>
    execFileSync("git", args, { cwd: join(f.home, "fleet", w2, "workspace"), env: ownGit, encoding: "utf8" });
  assert.equal(inOwnGit("rev-parse", "HEAD").trim(), shown.base);
  assert.equal(inOwnGit("status", "--porcelain"), "", "its own git sees a clean tree at its base");
});

test("the ledger and the human's verbs are out of a contained worker's reach (sqlite3, any open, an unset identity running approve)", async (t) => {
  const f = fixture(t);
  const w1 = await victim(f);
  const ledger = join(f.home, "ledger.sqlite");
  const before = ledgerRows(ledger);
  const script = join(f.root, "hostile.sh");
  writeFileSync(
    script,
    `${attempts({
      "sqlite3-write": `sqlite3 ${ledger} "UPDATE workers SET task = 'pwned'"`,
      "open-ledger": `"$DOCKET_NODE" -e 'require("fs").openSync(process.argv[1], "r")' ${ledger}`,
      "approve-as-human": `env -u DOCKET_WORKER_ID -u DOCKET_GENERATION -u DOCKET_RUN_TOKEN -u DOCKET_DOOR "$DOCKET_NODE" "$DOCKET_BIN" approve ${w1}`,
    })}
exec sleep 600
`,
  );
  chmodSync(script, 0o755);
  const r = f.run("spawn", "--agent", "command", "--cmd", script, "hostile", "--json");
  assertExit(r, 0);
  const w2 = r.json.worker;
  const got = await waitFor(
    "the attempts' results",
    () => {
      try {
        const all = results(f, w2);
        return Object.keys(all).length === 3 ? all : undefined;
      } catch {
        return undefined;
      }
    },
    60_000,
    200,
  );
  assert.deepEqual(got, { "sqlite3-write": "blocked", "open-ledger": "blocked", "approve-as-human": "blocked" });
  const after = ledgerRows(ledger);
  assert.deepEqual(after.decisions, before.decisions, "no decision was recorded");
  assert.deepEqual(
    after.workers?.find((w: any) => w.id === w1),
    before.workers?.find((w: any) => w.id === w1),
  );
});

test('sandbox "required" without bubblewrap on PATH refuses the spawn with the doctor\'s reason, and nothing starts', (t) => {
  const f = fixture(t);
  const bin = join(f.root, "bin");
  mkdirSync(bin);
  for (const tool of ["git", "tmux", "sh"]) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
  const env = { ...f.env, PATH: bin };
  assertExit(f.run("ls"), 0);
  const before = ledgerRows(join(f.home, "ledger.sqlite"));
  const r = docket({ env, cwd: f.repo }, "spawn", "--agent", "command", "--cmd", "true", "task", "--json");
  assertExit(r, 1);
  assert.equal(r.json.error.code, "sandbox-unavailable");
  assert.match(r.json.error.message, /bubblewrap \(bwrap\) is not on PATH; nothing was started/);
  assert.match(r.json.error.hint, /apt-get install -y bubblewrap/);
  assert.deepEqual(ledgerRows(join(f.home, "ledger.sqlite")).workers, before.workers);
  const doctor = docket({ env, cwd: f.repo }, "doctor", "--json");
  assertExit(doctor, 1);
  const finding = doctor.json.error.findings.find((x: any) => x.check === "sandbox");
  assert.equal(finding.severity, "problem");
  assert.match(finding.message, /bubblewrap \(bwrap\) is not on PATH/);
});

test('network "none": a contained worker cannot reach a server on the machine\'s loopback; the default network can', async (t) => {
  const server = createServer((s) => s.end("hello\n"));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  t.after(() => server.close());
  const port = (server.address() as AddressInfo).port;
  const connect = `"$DOCKET_NODE" -e 'const s = require("net").connect(${port}, "127.0.0.1"); s.on("data", () => process.exit(0)); s.on("error", () => process.exit(1))'`;
  const outcome = async (network: string): Promise<string> => {
    const f = fixture(t, {});
    writeFileSync(
      join(f.home, "config.json"),
      JSON.stringify({ sandbox: { mode: "required", network, readOnlyPaths: [f.root] } }),
    );
    const script = join(f.root, "net.sh");
    writeFileSync(script, `${attempts({ "loopback-connect": connect })}\nexec sleep 600\n`);
    chmodSync(script, 0o755);
    const r = f.run("spawn", "--agent", "command", "--cmd", script, "net", "--json");
    assertExit(r, 0);
    return waitFor(
      `${network}: the connect attempt`,
      () => {
        try {
          return results(f, r.json.worker)["loopback-connect"];
        } catch {
          return undefined;
        }
      },
      60_000,
      200,
    );
  };
  assert.equal(await outcome("none"), "blocked");
  assert.equal(await outcome("default"), "ESCAPED", "the default network is the machine's, as uncontained");
});

test("worker.unattended is refused for an agent that would not be contained, before anything starts", (t) => {
  const f = fixture(t);
  writeFileSync(join(f.home, "config.json"), JSON.stringify({ sandbox: "off", worker: { unattended: true } }));
  const r = f.run("spawn", "--agent", "claude", "task", "--json");
  assertExit(r, 1);
  assert.equal(r.json.error.code, "unattended-needs-sandbox");
  assert.match(
    r.json.error.message,
    /worker\.unattended turns claude's permission prompts off, which Docket allows only inside its sandbox/,
  );
  assert.deepEqual(f.run("ls", "--all", "--json").json.workers, []);
});

test("`docket worker gate` (Claude Code's PreToolUse hook) refuses an edit with exit 2 while the plan gate is armed and passes once the human answered", async (t) => {
  const f = fixture(t, { sandbox: "off" });
  const r = f.run(
    "spawn",
    "--agent",
    "command",
    "--as",
    "patcher",
    "--cmd",
    'echo "$DOCKET_WORKER_ID $DOCKET_GENERATION $DOCKET_RUN_TOKEN" > "$TMPDIR/who"; exec sleep 600',
    "gated",
    "--json",
  );
  assertExit(r, 0);
  const whoFile = join(f.env.TMPDIR!, "who");
  const [worker, generation, token] = await waitFor(
    "the worker's identity",
    () => {
      try {
        return readFileSync(whoFile, "utf8").trim().split(" ");
      } catch {
        return undefined;
      }
    },
    60_000,
    100,
  );
  const as = { ...f.env, DOCKET_WORKER_ID: worker!, DOCKET_GENERATION: generation!, DOCKET_RUN_TOKEN: token! };
  const gate = () => docket({ env: as, cwd: f.repo }, "worker", "gate");
  const armed = gate();
  assert.equal(armed.code, 2);
  assert.match(armed.stderr, /^Refused by Docket: your plan gate is armed.*docket_wait/);
  assertExit(docket({ env: as, cwd: f.repo }, "worker", "wait", "--question", "Plan: edit a.txt. OK?"), 0);
  assertExit(f.run("answer", worker!, "go ahead"), 0);
  const open = gate();
  assert.equal(open.code, 0, open.stderr);
  assert.equal(open.stderr, "");
});

test("with no sandbox setting a worker is contained wherever bubblewrap works; DOCKET_SANDBOX=off for one command runs it uncontained and says why; a bad value is ignored aloud", (t) => {
  const f = fixture(t, { sandbox: { readOnlyPaths: [] } });
  const on = f.run("spawn", "--agent", "command", "--cmd", "sleep 600", "default contained", "--json");
  assertExit(on, 0);
  assert.equal(
    show(f, on.json.worker).contained,
    true,
    "the default, auto, contains on this machine (bubblewrap works here)",
  );
  assert.ok(
    on.json.summary.includes(
      "Contained: yes (bubblewrap: read-only system, own workspace, no other worker, no secrets; network: its model API and sandbox.allow only, through Docket's proxy)",
    ),
    on.stdout,
  );
  // One command's own DOCKET_SANDBOX, over the fixture's environment.
  const spawnWithSandbox = (value: string, task: string) =>
    assertExit(
      docket(
        { env: { ...f.env, DOCKET_SANDBOX: value }, cwd: f.repo },
        "spawn",
        "--agent",
        "command",
        "--cmd",
        "sleep 600",
        task,
        "--json",
      ),
      0,
    );
  const off = spawnWithSandbox("off", "uncontained once");
  assert.ok(off.json.summary.includes("Contained: no (DOCKET_SANDBOX=off)"), off.stdout);
  assert.equal(show(f, off.json.worker).contained, false);
  const bad = spawnWithSandbox("sometimes", "a bad variable");
  assert.match(bad.stderr, /DOCKET_SANDBOX must be one of auto, required, off; ignored/);
  assert.equal(show(f, bad.json.worker).contained, true, "an unknown value changes nothing");
});
