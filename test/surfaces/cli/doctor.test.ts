// `docket doctor [--fix] [--json]` through the real CLI: each finding says what is wrong and what to do; --fix repairs
// only the safe ones (modes, temp files of dead writers, the store index); a remaining problem exits 1.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docketWith, type CliRun } from "../../support/docket-cli.js";
import { tempDir } from "../../support/temp.js";
import { waitFor } from "../../support/wait.js";

type T = { after(fn: () => void): void };
interface Finding {
  check: string;
  severity: string;
  message: string;
  fix?: string;
  fixed?: boolean;
  paths?: string[];
}

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

function ground(t: T) {
  const home = tempDir(t, "docket-doctor-");
  const run = (args: string[], env: Record<string, string> = {}): CliRun =>
    docketWith({ env: { ...cliEnv({ DOCKET_HOME: home }), ...env }, cwd: home }, ...args);
  const doctor = (...flags: string[]) => {
    const r = run(["doctor", "--json", ...flags]);
    assert.ok(r.json, r.stdout + r.stderr);
    return {
      code: r.code,
      report: (r.code === 1 ? r.json.error : r.json) as { home: string; ok: boolean; findings: Finding[] },
    };
  };
  const save = (text: string): string => {
    writeFileSync(join(home, "body.md"), text);
    const r = run(["save", "--author", join(home, "body.md"), "--outcome", "findings", "--json"]);
    assert.equal(r.code, 0, r.stderr);
    return r.json.id;
  };
  return { home, run, doctor, save };
}

const of = (findings: Finding[], check: string) => findings.filter((f) => f.check === check);

test("a healthy home: every check is ok, tmux, git and pi are found, and doctor exits 0", (t) => {
  const g = ground(t);
  g.save("a note\n");
  const { code, report } = g.doctor();
  assert.equal(code, 0);
  assert.equal(report.ok, true);
  assert.deepEqual(
    report.findings.map((f) => [f.check, f.severity]),
    [
      ["home", "ok"],
      ["ledger", "ok"],
      ["modes", "ok"],
      ["temp-files", "ok"],
      ["links", "ok"],
      ["pi-docket", "ok"],
      ["door", "ok"],
      ["store-index", "ok"],
      ["node", "ok"],
      ["tmux", "ok"],
      ["git", "ok"],
      ["pi", "ok"],
      ["sandbox", "ok"],
      ["notify", "ok"],
      ["notify", "ok"],
    ],
  );
  assert.match(
    of(report.findings, "sandbox")[0]!.message,
    /^workers can be contained here \(bubblewrap \d+\.\d+[.\d]* at \/.*bwrap\); sandbox is off \(DOCKET_SANDBOX=off\)/,
  );
  assert.match(of(report.findings, "tmux")[0]!.message, /^tmux \d+\.\d+/);
});

test("a damaged ledger is a problem naming quick_check's finding and the way out; doctor exits 1", (t) => {
  const g = ground(t);
  g.save("a note\n");
  const ledger = join(g.home, "ledger.sqlite");
  const bytes = readFileSync(ledger);
  writeFileSync(ledger, bytes.subarray(0, bytes.length - 8192));
  const { code, report } = g.doctor();
  assert.equal(code, 1);
  assert.equal(report.ok, false);
  const [f] = of(report.findings, "ledger");
  assert.equal(f!.severity, "problem");
  assert.match(f!.message, new RegExp(`^${ledger} is damaged: `));
  assert.match(f!.fix ?? "", /mv .*ledger\.sqlite .*\.damaged/);
  const text = g.run(["doctor"]);
  assert.equal(text.code, 1);
  assert.match(text.stdout, /^FAIL {2}ledger /m);
});

test("a looser existing home gets one warning line; --fix makes the home 0700 and Docket's files 0600", (t) => {
  const g = ground(t);
  const id = g.save("a note\n");
  const record = join(g.home, "deliverables", id, "v1.json");
  chmodSync(g.home, 0o755);
  chmodSync(join(g.home, "ledger.sqlite"), 0o644);
  chmodSync(record, 0o644);
  const text = g.run(["doctor"]);
  assert.equal(text.code, 0, "loose modes are a warning, not a failure");
  assert.deepEqual(
    text.stdout.split("\n").filter((l) => l.includes(`${g.home} is 755`)),
    [`warn  modes       ${g.home} is 755: other users can look inside Docket's home`],
  );
  assert.equal(
    text.stdout.trimEnd().split("\n").at(-1),
    "no problems; 2 warnings above, each with what to do",
    "the last line does not read as all clear",
  );
  const { report } = g.doctor();
  assert.deepEqual(
    of(report.findings, "modes").map((f) => f.severity),
    ["warning", "warning"],
  );
  const loose = of(report.findings, "modes")[1]!.paths ?? [];
  for (const p of [`644 ${join(g.home, "ledger.sqlite")}`, `644 ${record}`])
    assert.ok(loose.includes(p), `${p} in ${loose.join(", ")}`);
  const fixed = g.doctor("--fix");
  assert.deepEqual(
    of(fixed.report.findings, "modes").map((f) => f.fixed),
    [true, true],
  );
  assert.deepEqual([modeOf(g.home), modeOf(join(g.home, "ledger.sqlite")), modeOf(record)], ["700", "600", "600"]);
  assert.deepEqual(
    of(g.doctor().report.findings, "modes").map((f) => f.severity),
    ["ok"],
  );
});

test("temp files left by killed writers are reported and removed by --fix; one whose writer still runs is kept", (t) => {
  const g = ground(t);
  const id = g.save("a note\n");
  const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
  const orphan = join(g.home, "deliverables", id, `.v2.json.${dead}.0123456789ab.tmp`);
  const busy = join(g.home, "deliverables", id, `.v3.json.${process.pid}.0123456789ab.tmp`);
  writeFileSync(orphan, "{ half");
  writeFileSync(busy, "{ being written");
  const [before] = of(g.doctor().report.findings, "temp-files");
  assert.equal(before!.severity, "warning");
  assert.deepEqual(before!.paths, [orphan]);
  assert.match(before!.fix ?? "", /docket doctor --fix/);
  g.doctor("--fix");
  assert.equal(existsSync(orphan), false);
  assert.equal(existsSync(busy), true);
  assert.equal(of(g.doctor().report.findings, "temp-files")[0]!.severity, "ok");
});

test("a store index that no longer matches the files is reported and rebuilt from the files by --fix", (t) => {
  const g = ground(t);
  const id = g.save("first note\n");
  const listing = () =>
    g.run(["deliverables", "--json"]).json as { deliverables: unknown[]; unsupported: { reason: string }[] };
  assert.equal(listing().deliverables.length, 1);
  writeFileSync(join(g.home, "deliverables", id, "v1.json"), "{ torn by hand"); // in place: the directory's stamp does not move
  assert.equal(listing().deliverables.length, 1, "the index still lists the record as it was");
  const [before] = of(g.doctor().report.findings, "store-index");
  assert.equal(before!.severity, "warning");
  assert.deepEqual(before!.paths, [`not indexed: ${id}:1:unsupported:corrupt`, `stale: ${id}:1:ok:`]);
  assert.match(before!.fix ?? "", /docket doctor --fix.*deliverables --reindex/);
  assert.equal(of(g.doctor("--fix").report.findings, "store-index")[0]!.fixed, true);
  assert.deepEqual(listing(), {
    deliverables: [],
    unsupported: [{ path: join(g.home, "deliverables", id, "v1.json"), reason: "corrupt" }],
  });
  assert.equal(of(g.doctor().report.findings, "store-index")[0]!.severity, "ok");
});

test("without tmux and git on PATH doctor says what to install and exits 1", (t) => {
  const g = ground(t);
  const r = g.run(["doctor", "--json"], { PATH: tempDir(t, "docket-empty-path-") });
  assert.equal(r.code, 1);
  assert.equal(r.json.error.code, "doctor-problems");
  const findings = r.json.error.findings as Finding[];
  assert.deepEqual(of(findings, "tmux")[0], {
    check: "tmux",
    severity: "problem",
    message: "tmux is not on PATH",
    fix: "install tmux (apt-get install -y tmux, brew install tmux); workers run in its windows",
  });
  assert.equal(of(findings, "git")[0]!.severity, "problem");
  assert.equal(of(findings, "pi")[0]!.severity, "ok");
});

test("a socket no door listens on (its door was killed) is a door warning; --fix removes it and nothing else", async (t) => {
  const g = ground(t);
  const dir = join(g.home, "door");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stale = join(dir, "w4-1.sock");
  // A process that listens and is killed leaves its socket file behind, as a SIGKILLed door does.
  const holder = spawn(
    process.execPath,
    ["-e", "require('node:net').createServer().listen(process.argv[1]); setInterval(() => {}, 1000)", stale],
    { stdio: "ignore" },
  );
  await waitFor("the socket", () => existsSync(stale));
  holder.kill("SIGKILL");
  await new Promise((r) => holder.on("close", r));
  writeFileSync(join(dir, "notes.txt"), "not a socket\n");
  const before = of(g.doctor().report.findings, "door");
  assert.deepEqual(
    before.map((f) => [f.severity, f.message]),
    [
      ["ok", "not running (no live worker needs it; the next spawn starts it)"],
      ["warning", "1 stale socket no door listens on"],
    ],
  );
  assert.deepEqual(before[1]!.paths, [stale]);
  assert.match(before[1]!.fix ?? "", /`docket doctor --fix`/);
  const fixed = of(g.doctor("--fix").report.findings, "door")[1]!;
  assert.equal(fixed.fixed, true);
  assert.equal(existsSync(stale), false);
  assert.ok(lstatSync(join(dir, "notes.txt")).isFile(), "a file that is not a socket is left alone");
  assert.equal(of(g.doctor().report.findings, "door").length, 1);
});
