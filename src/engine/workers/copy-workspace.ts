// Outside a git repository a writable worker's workspace is a copy of the directory spawn runs in: refused before
// anything is written when that directory is a home directory (its secrets would be copied for the worker to read)
// or larger than a copy should be, with what to do instead.

import { homedir } from "node:os";
import { resolve } from "node:path";
import { refusal } from "../../domain/errors.js";
import type { EngineContext } from "../context.js";

const MB = 1024 * 1024;

export function assertCopyableProject(ctx: EngineContext, projectRoot: string): void {
  const repo = ctx.git.inspectRepository(projectRoot);
  if (repo.kind === "repo") return;
  const what = repo.kind === "unborn" ? "a git repository with no commit yet" : "not a git repository";
  const homes = [ctx.env.HOME, homedir()].filter((h): h is string => Boolean(h)).map((h) => resolve(h));
  if (projectRoot === "/" || homes.includes(projectRoot)) {
    throw refusal(
      "spawn-outside-repository",
      `${projectRoot} is ${projectRoot === "/" ? "the root directory" : "your home directory"} and ${what}: Docket will not copy it (and every secret in it) into a worker's workspace; nothing was started`,
      "run spawn inside a project: a git repository (its worktree is the workspace), or a small folder Docket may copy",
    );
  }
  const m = ctx.git.measureTreeCopy(projectRoot, [ctx.home.root]);
  if (m.over) {
    throw refusal(
      "spawn-copy-too-large",
      `${projectRoot} is ${what}, so the worker's workspace would be a copy of it, and it holds more than ${m.limits.files.toLocaleString("en")} files or ${m.limits.bytes / MB} MB (counting stopped at ${m.files.toLocaleString("en")} files, ${Math.ceil(m.bytes / MB)} MB); nothing was started`,
      "make it a repository and commit what the worker should see (`git init`, `git add`, `git commit`), then spawn again",
    );
  }
}
