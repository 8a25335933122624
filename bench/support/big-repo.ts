// The 2,000-file repository the done benches freeze against, and the worker row they insert (a pi worker in its own
// workspace under the bench's home): one definition for the benches that compare a first done and a steady one.

import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const FILES = 2_000;

export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });

/** A repository of FILES 30-line files in 40 folders, committed once; its HEAD. */
export function makeBigRepository(project: string): string {
  mkdirSync(project, { recursive: true });
  git(project, "init", "-q", "-b", "main");
  git(project, "config", "user.email", "bench@example.invalid");
  git(project, "config", "user.name", "bench");
  git(project, "config", "gc.auto", "0");
  for (let i = 0; i < FILES; i++) {
    const dir = join(project, "src", `d${i % 40}`);
    mkdirSync(dir, { recursive: true });
    const lines = Array.from(
      { length: 30 },
      (_, l) => `export const v${l} = ${i * 100 + l}; // line ${l} of file ${i}`,
    );
    writeFileSync(join(dir, `f${i}.ts`), `${lines.join("\n")}\n`);
  }
  git(project, "add", "-A");
  git(project, "commit", "-q", "-m", "initial");
  return git(project, "rev-parse", "HEAD").trim();
}

/** The row a bench inserts for its worker: a pi worker with its own workspace under `home`, run token `tok`. */
export function benchWorkerRow(project: string, home: string) {
  return {
    task: "bench",
    kind: "general",
    agent: "pi" as const,
    execution: {},
    cwd: project,
    projectRoot: project,
    workspace: (id: string) => join(home, "workers", id, "workspace"),
    workspaceMode: "isolated" as const,
    runToken: "tok",
  };
}
