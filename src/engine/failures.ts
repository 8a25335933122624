// Turns storage failures met mid-command (a damaged ledger, a full disk, a read-only home) into named refusals.
// Surfaces pass every error through here before rendering; SQLite is loaded only to check a ledger reported damaged.

import { relative } from "node:path";
import { DocketError, isDocketError } from "../domain/errors.js";
import { diskFull, homeReadOnly, homeUnusable } from "../files/home-access.js";
import { homeLayout, resolveHomeDir } from "../files/home.js";
import { diskIsFull } from "../files/probe.js";
import { isCorruption } from "../ledger/core/sqlite-errors.js";

const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
};

const inside = (root: string, path: unknown): boolean =>
  typeof path === "string" && !relative(root, path).startsWith("..");

/** A one-line refusal for a damaged ledger, naming what quick_check found and how to recover. */
async function ledgerCorrupt(path: string, cause?: unknown): Promise<DocketError> {
  let found: string;
  try {
    const { checkLedgerIntegrity } = await import("../ledger/core/integrity.js");
    const check = checkLedgerIntegrity(path, 3);
    found = check.ok ? "quick_check passes, but SQLite reported damage while reading it" : check.problems.join("; ");
  } catch (error) {
    found = `quick_check could not run: ${(error as Error).message}`;
  }
  return new DocketError("refusal", "ledger-corrupt", `the ledger ${path} is damaged (${found}); nothing was changed`, {
    hint: `move it aside with \`mv ${path} ${path}.damaged\` and restore a backup (without it Docket starts an empty ledger); \`docket doctor\` shows the full check`,
    cause,
  });
}

/** The named refusal for `error` when it is a known storage failure, else `error` itself. */
export async function explainFailure(error: unknown, env: NodeJS.ProcessEnv): Promise<unknown> {
  const inner =
    isDocketError(error) && error.category === "internal" && error.cause !== undefined ? error.cause : error;
  if (isDocketError(inner)) return inner;
  const code = codeOf(inner);
  if (code === "") return error;
  const home = homeLayout(resolveHomeDir(env));
  if (isCorruption(inner)) return ledgerCorrupt(home.ledger, inner);
  const detail = (inner as Error).message;
  const path = (inner as { path?: unknown }).path;
  const inHome = path === undefined ? code.startsWith("SQLITE_") : inside(home.root, path);
  // SQLite reports a full disk under its ledger as a plain I/O error when the WAL index cannot grow: look at the disk.
  if (code.startsWith("SQLITE_IOERR") && diskIsFull(home.root)) return diskFull(home.root, detail, inner);
  if (code === "SQLITE_FULL" || code === "ENOSPC" || code === "EDQUOT")
    return diskFull(inHome || typeof path !== "string" ? home.root : path, detail, inner);
  if (!inHome) return error;
  if (code.startsWith("SQLITE_READONLY") || code === "EROFS")
    return homeReadOnly(home.root, `is read-only (${detail})`, inner);
  if (code === "EACCES" || code === "EPERM") return homeReadOnly(home.root, `cannot be written (${detail})`, inner);
  if (code.startsWith("SQLITE_CANTOPEN")) return homeUnusable(home.root, `cannot open its ledger (${detail})`, inner);
  if (code === "ENAMETOOLONG") return homeUnusable(home.root, `is too long (${detail})`, inner);
  return error;
}
