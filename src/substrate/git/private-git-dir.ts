// A contained worker's own git dir (`fleet/<id>/git`): its HEAD, index, refs and new objects, over the repository's
// object store as a read-only alternate, so it commits without writing anything of your repository's .git.

import {
  constants,
  copyFileSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";

/** Where the worker's git dir comes from: the repository's common dir, its worktree's admin dir, and its refs. */
export interface PrivateGitSource {
  commonDir: string;
  adminDir: string;
  /** `<object id> <ref name>` lines of the repository's branches and tags when the worker starts (for `git log main`). */
  refs: string;
}

/** A contained worker's own git dir, beside its workspace in its directory (`fleet/<id>/git`); only a worktree has one. */
export function privateGitDirOf(workspace: string): string {
  return join(dirname(workspace), "git");
}

const COMMIT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** A value for a git config file, quoted; a path with a newline or a NUL cannot be written into one. */
function configValue(path: string): string {
  if (/[\n\r\0]/.test(path)) throw new Error(`${JSON.stringify(path)} cannot be named in a git config file`);
  return `"${path.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** The commit the worktree's HEAD names (Docket detaches it at spawn); a HEAD that is anything else is refused. */
function adminHead(adminDir: string): string {
  const path = join(adminDir, "HEAD");
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size > 128) throw new Error(`${path} is not the detached HEAD Docket wrote`);
  const head = readFileSync(path, "utf8").trim();
  if (!COMMIT_ID.test(head)) throw new Error(`${path} does not name a commit`);
  return head;
}

function copyIfFile(from: string, to: string): void {
  if (lstatSync(from, { throwIfNoEntry: false })?.isFile()) copyFileSync(from, to);
}

/**
 * Makes the worker's git dir once (a later generation keeps its commits): made whole in a sibling and renamed into
 * place, so a half-made one is never used. Its config includes the repository's first, then pins its own work tree,
 * hooks and format after it, so the included file cannot move them.
 */
export function preparePrivateGitDir(dir: string, workspace: string, source: PrivateGitSource): void {
  if (lstatSync(join(dir, "HEAD"), { throwIfNoEntry: false })) return;
  const head = adminHead(source.adminDir);
  const temp = `${dir}.making-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  for (const sub of ["objects/info", "refs/heads", "refs/tags", "info"])
    mkdirSync(join(temp, sub), { recursive: true, mode: 0o700 });
  writeFileSync(join(temp, "objects", "info", "alternates"), `${join(source.commonDir, "objects")}\n`);
  writeFileSync(join(temp, "HEAD"), `${head}\n`);
  writeFileSync(
    join(temp, "packed-refs"),
    source.refs.endsWith("\n") || source.refs === "" ? source.refs : `${source.refs}\n`,
  );
  const sha256 = head.length === 64;
  writeFileSync(
    join(temp, "config"),
    `[include]\n\tpath = ${configValue(join(source.commonDir, "config"))}\n[core]\n\trepositoryformatversion = ${sha256 ? 1 : 0}\n\tbare = false\n` +
      `\tworktree = ${configValue(workspace)}\n\thooksPath = ${configValue(join(source.commonDir, "hooks"))}\n${sha256 ? "[extensions]\n\tobjectFormat = sha256\n" : ""}`,
  );
  copyIfFile(join(source.adminDir, "index"), join(temp, "index"));
  copyIfFile(join(source.commonDir, "info", "exclude"), join(temp, "info", "exclude"));
  renameSync(temp, dir);
}

/**
 * After Docket put the workspace back at `base` (discard, promote): the worker's own HEAD and index follow, each
 * replaced by a rename, so a link the worker left in its place is replaced, never followed.
 */
export function resetPrivateGitDir(dir: string, base: string, index: string): void {
  if (!lstatSync(join(dir, "HEAD"), { throwIfNoEntry: false })) return;
  if (!COMMIT_ID.test(base)) throw new Error(`"${base}" is not a full commit id`);
  const put = (name: string, write: (temp: string) => void) => {
    const temp = join(dir, `${name}.docket-${process.pid}`);
    rmSync(temp, { force: true });
    write(temp);
    renameSync(temp, join(dir, name));
  };
  put("HEAD", (temp) => writeFileSync(temp, `${base}\n`, { flag: "wx" }));
  if (lstatSync(index, { throwIfNoEntry: false })?.isFile())
    put("index", (temp) => copyFileSync(index, temp, constants.COPYFILE_EXCL));
}
