// A checkout's stamp, read from the file system without running git: what would change the answer of
// `git diff <base> -- <paths>` and of the untracked listing over those paths (HEAD and the ref it names, the index, the
// config, ignore and attribute files, and each path with the directories above it). Equal stamps: nothing moved.
// A config that points git at other files (include, excludesFile, attributesFile) gives no stamp: it cannot be told.

import { createHash } from "node:crypto";
import { lstatSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";

export interface CheckoutStamp {
  /** The repository-wide part. */
  repo: string;
  /** The part of these paths (each path and the directories above it), or undefined when one is a directory. */
  paths(paths: readonly string[]): string | undefined;
  /** The newest modification or change time seen so far, in ms since the epoch (a file this new may change unseen). */
  newest(): number;
}

const REDIRECTING = /^\s*(\[\s*include|path\s*=)|excludesfile|attributesfile/im;

/** The stamp of the checkout at `repoRoot`, or undefined when its git directory or config cannot be read plainly. */
export function checkoutStamp(repoRoot: string): CheckoutStamp | undefined {
  try {
    return stampOf(repoRoot);
  } catch {
    return undefined; // an unreadable piece: no stamp, so the caller asks git
  }
}

function stampOf(repoRoot: string): CheckoutStamp | undefined {
  const dirs = gitDirsOf(repoRoot);
  if (!dirs) return undefined;
  let newest = 0;
  const stats = new Map<string, string>();
  const directories = new Set<string>();
  const statOf = (path: string): string => {
    let s = stats.get(path);
    if (s !== undefined) return s;
    let st;
    try {
      st = lstatSync(path, { bigint: true, throwIfNoEntry: false }); // most ignore and attribute files do not exist
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") throw error;
    }
    if (st) {
      newest = Math.max(newest, Number(st.mtimeMs), Number(st.ctimeMs));
      if (st.isDirectory()) directories.add(path);
      s = `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    } else s = "-";
    stats.set(path, s);
    return s;
  };
  const configs = configFiles(dirs);
  const texts = configs.map((path) => readOptional(path));
  if (texts.some((t) => t !== undefined && REDIRECTING.test(t))) return undefined;
  const head = readOptional(join(dirs.git, "HEAD")) ?? "";
  const ref = /^ref: (refs\/[^\s]+)\s*$/.exec(head)?.[1];
  const parts = [
    repoRoot,
    head,
    ref ? (readOptional(join(dirs.common, ref)) ?? "") : "",
    statOf(join(dirs.common, "packed-refs")),
    statOf(join(dirs.git, "index")),
    ...configs.map(statOf),
    ...texts.map((t) => t ?? "-"),
    ...[dirs.git, dirs.common].flatMap((d) => [
      statOf(join(d, "info", "exclude")),
      statOf(join(d, "info", "attributes")),
    ]),
    statOf(join(repoRoot, ".gitignore")),
    statOf(join(repoRoot, ".gitattributes")),
  ];
  const hash = (xs: readonly string[]) => createHash("sha256").update(xs.join("\0")).digest("hex");
  return {
    repo: hash(parts),
    paths(paths) {
      const out: string[] = [];
      for (const path of paths) {
        const full = resolve(repoRoot, path);
        const own = statOf(full);
        if (directories.has(full)) return undefined;
        out.push(path, own);
        for (let dir = dirname(full); dir.length > repoRoot.length && dir.startsWith(repoRoot); dir = dirname(dir)) {
          out.push(statOf(dir), statOf(join(dir, ".gitignore")), statOf(join(dir, ".gitattributes")));
        }
      }
      return hash(out);
    },
    newest: () => newest,
  };
}

/** The checkout's git directory and the common one (they differ in a linked worktree). */
function gitDirsOf(repoRoot: string): { git: string; common: string } | undefined {
  const dotGit = join(repoRoot, ".git");
  const st = lstatSync(dotGit);
  let git: string;
  if (st.isDirectory()) git = dotGit;
  else if (st.isFile()) {
    const m = /^gitdir: (.+?)\s*$/.exec(readFileSync(dotGit, "utf8"));
    if (!m) return undefined;
    git = isAbsolute(m[1]!) ? m[1]! : resolve(repoRoot, m[1]!);
  } else return undefined;
  const common = readOptional(join(git, "commondir"))?.trim();
  return { git, common: common ? resolve(git, common) : git };
}

/** Every config file git reads for this checkout (system, global, local, worktree). */
function configFiles(dirs: { git: string; common: string }): string[] {
  const home = process.env.HOME ?? homedir();
  const xdg = process.env.XDG_CONFIG_HOME || join(home, ".config");
  return [
    "/etc/gitconfig",
    "/etc/gitattributes",
    join(home, ".gitconfig"),
    join(xdg, "git", "config"),
    join(xdg, "git", "ignore"),
    join(xdg, "git", "attributes"),
    join(dirs.common, "config"),
    join(dirs.git, "config.worktree"),
  ];
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR")
      return undefined;
    throw error;
  }
}
