// A worker's identity, run token and --env secrets reach only its own process (docs/decisions/authority.md): real CLI,
// real tmux on a private socket. Not in tmux's session or global environment, not in another window, not in any
// process's argv, not in the ledger; only in the worker's 0600 launch env file, which respawn reuses and delete removes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { hashRunToken } from "../../../src/ledger/workers/workers.js";
import { cliGround } from "../../support/cli-workers.js";
import { launchEnvOf } from "../../support/launch-env.js";
import { ledgerRows } from "../../support/snapshot.js";
import { waitFor } from "../../support/wait.js";

const IDENTITY = /DOCKET_WORKER_ID|DOCKET_GENERATION|DOCKET_RUN_TOKEN/;

/** What the worker's own process sees, written where the test can read it. */
const SEEN =
  'printf "%s|%s|%s|%s|%s\\n" "$DOCKET_WORKER_ID" "$DOCKET_GENERATION" "$API_KEY" "${DOCKET_RUN_TOKEN:+token}" "${SHELL_SECRET:-none}" > "$HOME/seen-$DOCKET_WORKER_ID-$DOCKET_GENERATION.txt"; sleep 600';

function fixture(t: { after(fn: () => void): void }) {
  // The human's shell holds a secret no worker was given: it must not reach any of them.
  const g = cliGround(t, {
    env: { SHELL_SECRET: `shell-${randomBytes(6).toString("hex")}` },
  });
  const seen = (worker: string, generation: number) =>
    waitFor(`${worker} generation ${generation} to start`, () => {
      const path = join(g.root, `seen-${worker}-${generation}.txt`);
      return existsSync(path) ? readFileSync(path, "utf8").trim() : undefined;
    });
  /** A scout command worker given `API_KEY=<secret>` through --env, whose process writes what it sees. */
  const spawn = (secret: string, task: string) =>
    g.run("spawn", "--agent", "command", "--as", "scout", "--cmd", SEEN, "--env", `API_KEY=${secret}`, "--json", task);
  return { ...g, seen, spawn };
}

/** The argv of every process this user can see. */
function allCommandLines(): string[] {
  const lines: string[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      lines.push(readFileSync(join("/proc", pid, "cmdline"), "utf8").replace(/\0/g, " "));
    } catch {
      // The process exited while we listed: it has no argv left to leak.
    }
  }
  return lines;
}

test("two workers' identities and secrets are in neither tmux's environment, a fresh window, any argv nor the ledger", {
  timeout: 120_000,
}, async (t) => {
  const f = fixture(t);
  const secrets = [`sekrit-${randomBytes(8).toString("hex")}`, `sekrit-${randomBytes(8).toString("hex")}`];
  for (const [i, secret] of secrets.entries()) {
    const r = f.spawn(secret, `worker ${i + 1}`);
    assert.equal(r.code, 0, r.stderr + r.stdout);
  }
  assert.equal(
    await f.seen("w1", 1),
    `w1|1|${secrets[0]}|token|none`,
    "the worker's own process has its identity and secret, not the shell's",
  );
  assert.equal(await f.seen("w2", 1), `w2|1|${secrets[1]}|token|none`);
  const tokens = ["w1", "w2"].map((w) => launchEnvOf(f.home, w).DOCKET_RUN_TOKEN!);
  assert.notEqual(tokens[0], tokens[1]);

  const session = f.server.tmux("show-environment", "-t", "docket-workers");
  const global = f.server.tmux("show-environment", "-g");
  for (const text of [session, global]) {
    assert.doesNotMatch(text, IDENTITY);
    for (const secret of [...secrets, ...tokens, f.env.SHELL_SECRET!])
      assert.ok(!text.includes(secret), `tmux's environment holds ${secret}`);
  }

  const probe = join(f.home, "fresh-window.txt");
  f.server.tmux(
    "new-window",
    "-d",
    "-t",
    "=docket-workers:",
    "--",
    "sh",
    "-c",
    `env > '${probe}.tmp' && mv '${probe}.tmp' '${probe}'; sleep 30`,
  );
  const fresh = await waitFor("the fresh window's environment", () =>
    existsSync(probe) ? readFileSync(probe, "utf8") : undefined,
  );
  assert.doesNotMatch(fresh, IDENTITY, "a window someone else opens in the session runs as nobody's worker");
  assert.ok(!secrets.some((s) => fresh.includes(s)));

  const argv = allCommandLines();
  for (const secret of [...secrets, ...tokens]) {
    assert.deepEqual(
      argv.filter((line) => line.includes(secret)),
      [],
      "no process's argv holds a token or an --env value",
    );
  }

  for (const [i, worker] of ["w1", "w2"].entries()) {
    assert.equal(statSync(join(f.home, "fleet", worker, "launch.env")).mode & 0o777, 0o600);
    const row = ledgerRows(join(f.home, "ledger.sqlite")).workers!.find((w: any) => w.id === worker) as any;
    assert.equal(row.run_token_hash, hashRunToken(tokens[i]!));
    assert.deepEqual(JSON.parse(row.env), ["API_KEY"], "the ledger keeps the variable's name only");
  }
  const ledger = JSON.stringify(ledgerRows(join(f.home, "ledger.sqlite")));
  for (const secret of [...secrets, ...tokens]) assert.ok(!ledger.includes(secret), `the ledger holds ${secret}`);
});

test("respawn reuses the --env values from the env file under a new token; delete removes the file; a lost value is named", {
  timeout: 120_000,
}, async (t) => {
  const f = fixture(t);
  const secret = `sekrit-${randomBytes(8).toString("hex")}`;
  assert.equal(f.spawn(secret, "keep it").code, 0);
  assert.equal(await f.seen("w1", 1), `w1|1|${secret}|token|none`);
  const first = launchEnvOf(f.home, "w1").DOCKET_RUN_TOKEN;

  const r = f.run("respawn", "w1", "--json");
  assert.deepEqual(r.json, { worker: "w1", generation: 2 });
  assert.equal(await f.seen("w1", 2), `w1|2|${secret}|token|none`, "generation 2 got the same secret");
  const second = launchEnvOf(f.home, "w1");
  assert.notEqual(second.DOCKET_RUN_TOKEN, first);
  assert.equal(second.DOCKET_GENERATION, "2");

  // A worker whose values are gone (its file lost, or a ledger from before values left it) is respawned without them, and told so.
  rmSync(join(f.home, "fleet", "w1", "launch.env"));
  const lost = f.run("respawn", "w1", "--json");
  assert.deepEqual(lost.json, { worker: "w1", generation: 3, missingEnv: ["API_KEY"] });
  assert.equal(await f.seen("w1", 3), "w1|3||token|none");

  assert.equal(f.run("delete", "w1", "--yes", "--json").code, 0);
  assert.equal(existsSync(join(f.home, "fleet", "w1", "launch.env")), false, "its secrets went with it");
});
