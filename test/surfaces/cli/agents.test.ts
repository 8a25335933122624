// `docket spawn --agent claude|codex --dry-run`, config worker.agent, and the agents `docket kinds` and spawn --help show.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliEnv, docket } from "../../support/docket-cli.js";
import { gitRepo } from "../../support/git.js";
import { tempDir } from "../../support/temp.js";
import { tmuxServer } from "../../support/tmux.js";

function ground(t: { after(fn: () => void): void }) {
  const repo = gitRepo(tempDir(t, "docket-agents-repo-"));
  const home = tempDir(t, "docket-agents-home-");
  const env = cliEnv({ DOCKET_HOME: home, HOME: tempDir(t), DOCKET_TMUX_SOCKET: tmuxServer(t).socket });
  return { repo, home, run: (...args: string[]) => docket({ env, cwd: repo }, ...args) };
}

test("spawn --dry-run prints the resolved launch and the agent's whole command, and starts nothing", (t) => {
  const g = ground(t);
  const r = g.run(
    "spawn",
    "--agent",
    "claude",
    "--as",
    "scout",
    "--model",
    "claude-test-1",
    "--dry-run",
    "--json",
    "look",
    "around",
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.dryRun, true);
  assert.equal(r.json.agent, "claude");
  assert.ok(r.json.summary.includes("Agent: claude · model claude-test-1 (--model)"), r.json.summary.join("\n"));
  const command: string[] = r.json.command;
  assert.match(command[0]!, /claude-code-linux-[a-z0-9-]+\/claude$/);
  assert.deepEqual(command.slice(command.indexOf("--permission-mode"), command.indexOf("--permission-mode") + 2), [
    "--permission-mode",
    "dontAsk",
  ]);
  assert.ok(command.includes("--strict-mcp-config"));
  assert.deepEqual(command.slice(-2, -1), ["--"]);
  assert.equal(existsSync(join(g.home, "fleet")), false, "no worker directory");
  assert.deepEqual(g.run("ls", "--json").json.workers, []);
  const text = g.run("spawn", "--agent", "codex", "--dry-run", "fix", "it");
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^dry run: would start a codex worker of kind default; nothing was started$/m);
  assert.match(
    text.stdout,
    /command: .*codex\.js --sandbox workspace-write --ask-for-approval never --no-daemon --cd /,
  );
});

test("an unknown --agent and --thinking for claude are refused; config worker.agent picks the agent (user config only)", (t) => {
  const g = ground(t);
  const bad = g.run("spawn", "--agent", "gemini", "--json", "x");
  assert.equal(bad.code, 2);
  assert.equal(bad.json.error.message, '--agent must be one of pi, claude, codex, command; got "gemini"');
  const thinking = g.run("spawn", "--agent", "claude", "--thinking", "high", "--dry-run", "--json", "x");
  assert.equal(thinking.code, 1);
  assert.match(thinking.json.error.message, /^--thinking does not apply to --agent claude workers/);
  writeFileSync(join(g.home, "config.json"), JSON.stringify({ worker: { agent: "codex" } }));
  assert.equal(g.run("spawn", "--dry-run", "--json", "x").json.agent, "codex");
  mkdirSync(join(g.repo, ".docket"));
  writeFileSync(join(g.repo, ".docket", "config.json"), JSON.stringify({ worker: { agent: "claude" } }));
  const r = g.run("spawn", "--dry-run", "--json", "x");
  assert.equal(r.json.agent, "codex", "a project may not choose which agent sees the code");
});

test("docket kinds and spawn --help list the agents found on this machine and the command each runs", (t) => {
  const g = ground(t);
  const kinds = g.run("kinds");
  assert.equal(kinds.code, 0, kinds.stderr);
  assert.match(
    kinds.stdout,
    /\nagents \(docket spawn --agent <agent>; --dry-run shows the whole command\):\n {2}pi {6}builtin {6}\S+ \S+pi-coding-agent\S+cli\.js\n {2}claude {2}node_modules \S+\/claude\n {2}codex {3}node_modules \S+ \S+\/codex\.js\n {2}command builtin {6}sh -c <--cmd>\n/,
  );
  assert.ok(kinds.stdout.trimEnd().endsWith("(without --as: default)"));
  const help = g.run("spawn", "--help");
  assert.match(
    help.stdout,
    /Agents on this machine[^\n]*\n {2}pi .*\n {2}claude {2}node_modules .*\n {2}codex {3}node_modules .*\n {2}command /,
  );
});
