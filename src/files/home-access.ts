// Makes the Docket home usable before anything opens it: a private directory we can write, or a read-only one we can read.
// A home that is a file, too long, or cannot be created is one named refusal that says what to do
// (docs/decisions/authority.md).

import { accessSync, constants, statSync } from "node:fs";
import { DocketError } from "../domain/errors.js";
import type { HomeLayout } from "./home.js";
import { ensurePrivateDir, ensurePrivateFile } from "./private.js";

/** SQLite's longest path on unix is 512 bytes; the ledger's `-wal` and `-shm` names must fit too. */
export const MAX_LEDGER_PATH_BYTES = 507;

export type HomeAccess = "writable" | "read-only";

const READ_ONLY_CODES = new Set(["EROFS", "EACCES", "EPERM"]);

export function homeUnusable(root: string, why: string, cause?: unknown): DocketError {
  return new DocketError("refusal", "home-unusable", `the Docket home ${root} ${why}`, {
    hint: "point DOCKET_HOME at a directory you own, or unset it for the default home",
    cause,
  });
}

export function homeReadOnly(root: string, why: string, cause?: unknown): DocketError {
  return new DocketError("refusal", "home-read-only", `the Docket home ${root} ${why}, so nothing can be recorded`, {
    hint: "make it writable or point DOCKET_HOME elsewhere; ls, verdict, log, report, diff and deliverables still work on it",
    cause,
  });
}

export function diskFull(root: string, detail: string, cause?: unknown): DocketError {
  return new DocketError(
    "refusal",
    "disk-full",
    `the disk holding ${root} is full (${detail}); what did not fit was not recorded`,
    {
      hint: "free some space, then run the command again",
      cause,
    },
  );
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch (error) {
    if (READ_ONLY_CODES.has((error as NodeJS.ErrnoException).code ?? "")) return false;
    throw error;
  }
}

/**
 * Creates the home (0700) when absent and the ledger file (0600) when the home is writable, so SQLite's -wal and
 * -shm inherit 0600. Returns whether the ledger can be written; throws a named refusal when the home is unusable.
 */
export function prepareHome(home: HomeLayout): HomeAccess {
  const root = home.root;
  if (Buffer.byteLength(home.ledger) > MAX_LEDGER_PATH_BYTES) {
    throw homeUnusable(
      root,
      `is too long (${Buffer.byteLength(home.ledger)} bytes to its ledger; SQLite takes at most ${MAX_LEDGER_PATH_BYTES})`,
    );
  }
  let isDir: boolean | undefined;
  try {
    isDir = statSync(root).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR") throw homeUnusable(root, "has a file where a directory should be on its path", error);
    if (code === "ENAMETOOLONG") throw homeUnusable(root, "is too long for the file system", error);
    if (code !== "ENOENT") throw homeUnusable(root, `cannot be inspected (${code ?? (error as Error).message})`, error);
  }
  if (isDir === false) throw homeUnusable(root, "is a file, not a directory", undefined);
  if (isDir === undefined) {
    try {
      ensurePrivateDir(root);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "";
      if (READ_ONLY_CODES.has(code)) throw homeReadOnly(root, `cannot be created (${code})`, error);
      if (code === "ENOSPC" || code === "EDQUOT") throw diskFull(root, "creating the home", error);
      throw homeUnusable(root, `cannot be created (${code || (error as Error).message})`, error);
    }
  }
  if (!canWrite(root)) return "read-only";
  try {
    ensurePrivateFile(home.ledger);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code === "ENOSPC" || code === "EDQUOT") throw diskFull(root, "creating the ledger", error);
    if (READ_ONLY_CODES.has(code)) return "read-only";
    throw homeUnusable(root, `cannot hold the ledger (${code || (error as Error).message})`, error);
  }
  return canWrite(home.ledger) ? "writable" : "read-only";
}
