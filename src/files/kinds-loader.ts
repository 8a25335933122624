// Reads kind markdown files from the user and project kind directories. Directory contents are untrusted:
// dot files, non-.md files, unsafe names, non-regular files and oversized files are skipped, and said so.

import { lstatSync, readdirSync, readFileSync, statSync, type Stats } from "node:fs";
import { join, resolve } from "node:path";
import { isSafeName } from "../domain/ids.js";
import type { KindDiagnostic, KindFile, KindFileSource } from "../domain/workers/kinds.js";

/** Kind files are a page of markdown; anything larger is not a kind. */
export const MAX_KIND_FILE_BYTES = 64 * 1024;

export interface KindFileScan {
  files: KindFile[];
  /** Files that looked like kinds (`*.md`) but were not read, with the reason. Dot files and other names are silent. */
  skipped: KindDiagnostic[];
}

/** User files first, then project files, each directory in name order: the registry lets the later win. */
export function loadKindFiles(userDir: string, projectDir: string): KindFile[] {
  return scanKindDirs(userDir, projectDir).files;
}

export function scanKindDirs(userDir: string, projectDir: string): KindFileScan {
  const scan: KindFileScan = { files: [], skipped: [] };
  scanDir(userDir, "user", scan);
  if (resolve(projectDir) !== resolve(userDir)) scanDir(projectDir, "project", scan);
  return scan;
}

function scanDir(dir: string, source: KindFileSource, scan: KindFileScan): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (error) {
    if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return;
    scan.skipped.push({
      path: dir,
      message: `kind directory unreadable (${codeOf(error) ?? String(error)}); its kinds are not loaded`,
    });
    return;
  }
  for (const name of names) {
    if (name.startsWith(".") || !name.toLowerCase().endsWith(".md")) continue;
    const path = join(dir, name);
    if (!isSafeName(name)) {
      scan.skipped.push({ path, message: "unsafe file name; rename it to letters, digits, -, _ and ." });
      continue;
    }
    try {
      const st = statFor(path, source);
      if (!st) {
        scan.skipped.push({
          path,
          message:
            source === "project" ? "not a regular file (project kinds may not be symlinks)" : "not a regular file",
        });
        continue;
      }
      if (st.size > MAX_KIND_FILE_BYTES) {
        scan.skipped.push({
          path,
          message: `too large (${st.size} bytes; a kind file may be at most ${MAX_KIND_FILE_BYTES})`,
        });
        continue;
      }
      scan.files.push({ source, path, text: readFileSync(path, "utf8") });
    } catch (error) {
      scan.skipped.push({ path, message: `unreadable (${codeOf(error) ?? String(error)})` });
    }
  }
}

/** User kinds may be symlinks to regular files (dotfile repos); project kinds come from a checkout and may not. */
function statFor(path: string, source: KindFileSource): Stats | undefined {
  const l = lstatSync(path);
  if (l.isFile()) return l;
  if (l.isSymbolicLink() && source === "user") {
    const s = statSync(path);
    return s.isFile() ? s : undefined;
  }
  return undefined;
}

function codeOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}
