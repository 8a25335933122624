// The launch env file against the real `sh` that reads it: every value arrives byte for byte, none is run as shell
// syntax, the file is 0600 whatever the umask, and only a file in Docket's exact shape is read back.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatLaunchEnv, parseLaunchEnv } from "../../../src/domain/workers/launch-env.js";
import { readLaunchEnv, writeLaunchEnv } from "../../../src/files/workers/launch-env.js";
import { tempDir } from "../../support/temp.js";

const VALUES: Record<string, string> = {
  QUOTES: `it's "double" and 'single' '' '\\''`,
  SHELL: "$(touch PWNED) `touch PWNED` ${HOME} $HOME; rm -rf x && echo | cat > y",
  LINES: "first\nsecond\n\nlast\n",
  TMUX_FORMAT: "#(touch PWNED) #{session_name}",
  UNICODE: "ünïcode 🙂\ttab",
  DASH: "-n --flag",
  EMPTY: "",
};

test("every value read back through sh is byte-identical and nothing in it runs", (t) => {
  const dir = tempDir(t);
  const file = join(dir, "launch.env");
  writeLaunchEnv(file, VALUES, "test");
  const names = Object.keys(VALUES);
  const script = `. "$1"; for n in ${names.join(" ")}; do eval "v=\\$$n"; printf '%s\\0' "$v"; done`;
  const out = execFileSync("sh", ["-c", script, "sh", file], { cwd: dir, encoding: "utf8" });
  assert.deepEqual(out.split("\0").slice(0, -1), Object.values(VALUES));
  assert.equal(
    execFileSync("ls", ["-A", dir], { encoding: "utf8" }).trim(),
    "launch.env",
    "no PWNED file: nothing ran",
  );
  assert.deepEqual(readLaunchEnv(file), VALUES);
});

test("the file is 0600 from creation even under a permissive umask", (t) => {
  const dir = tempDir(t);
  const previous = process.umask(0o000);
  try {
    writeLaunchEnv(join(dir, "launch.env"), { A: "1" }, "test");
  } finally {
    process.umask(previous);
  }
  assert.equal(statSync(join(dir, "launch.env")).mode & 0o777, 0o600);
});

test("only Docket's exact shape is parsed; anything else is not read back", (t) => {
  assert.deepEqual(parseLaunchEnv(formatLaunchEnv({ A: "x'y" }, "h")), { A: "x'y" });
  for (const bad of ["export A=x\n", "A='x'\n", "export A='x\n", "export A='x' B\n", "export 1A='x'\n", "rm -rf /\n"]) {
    assert.equal(parseLaunchEnv(bad), undefined, JSON.stringify(bad));
  }
  assert.throws(() => formatLaunchEnv({ "BAD NAME": "x" }, "h"), { code: "bad-env-name" });
  const dir = tempDir(t);
  writeFileSync(join(dir, "launch.env"), "export A=$(id)\n");
  assert.equal(readLaunchEnv(join(dir, "launch.env")), undefined);
  assert.equal(readLaunchEnv(join(dir, "missing.env")), undefined);
});
