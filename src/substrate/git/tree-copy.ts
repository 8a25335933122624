// The copy of a project that is not a git repository (or has no commit yet), for a worker's workspace: measured first
// (a walk that stops once past the limits, so a home directory or a node_modules tree is refused, not copied), then
// copied entry by entry without `.git` and without the excluded paths (the Docket home) — symlinks copied as links.

import { copyFileSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, type Stats } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";

/** What a copied workspace may hold at most. */
export const COPY_LIMITS = { files: 5_000, bytes: 256 * 1024 * 1024 };

export interface TreeMeasure {
  files: number;
  bytes: number;
  /** True once a limit was passed: the walk stopped there, so files and bytes are lower bounds. */
  over: boolean;
  limits: typeof COPY_LIMITS;
}

/** Every entry of `root` a copy takes, depth first, with its lstat; stops when `visit` returns false. */
function walk(root: string, exclude: readonly string[], visit: (rel: string, st: Stats) => boolean): void {
  const excluded = exclude.map((p) => resolve(p));
  const skip = (abs: string) => excluded.some((x) => abs === x || abs.startsWith(`${x}${sep}`));
  const stack: string[] = [""];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    for (const name of readdirSync(join(root, rel)).sort().reverse()) {
      if (rel === "" && name === ".git") continue;
      const child = rel === "" ? name : join(rel, name);
      const abs = join(root, child);
      if (skip(abs)) continue;
      const st = lstatSync(abs);
      if (!visit(child, st)) return;
      if (st.isDirectory()) stack.push(child);
    }
  }
}

export function measureTreeCopy(root: string, exclude: readonly string[], limits = COPY_LIMITS): TreeMeasure {
  const m: TreeMeasure = { files: 0, bytes: 0, over: false, limits };
  walk(root, exclude, (_rel, st) => {
    if (st.isFile() || st.isSymbolicLink()) {
      m.files++;
      m.bytes += st.isFile() ? st.size : 0;
    }
    m.over = m.files > limits.files || m.bytes > limits.bytes;
    return !m.over;
  });
  return m;
}

/** Copies one file or symlink (as a link) to `to`, making its parent; anything else is not copied. */
export function copyEntry(from: string, to: string, st: Stats = lstatSync(from)): void {
  mkdirSync(dirname(to), { recursive: true });
  if (st.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else if (st.isFile()) copyFileSync(from, to);
}

/** Copies `root` into the new directory `target` (which may lie inside `root` when it is excluded). */
export function copyTree(root: string, target: string, exclude: readonly string[]): void {
  mkdirSync(target, { recursive: true });
  walk(root, [...exclude, target], (rel, st) => {
    if (st.isDirectory()) mkdirSync(join(target, rel), { recursive: true });
    else copyEntry(join(root, rel), join(target, rel), st); // sockets, fifos and devices are not copied
    return true;
  });
}
