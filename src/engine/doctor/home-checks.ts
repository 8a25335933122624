// The doctor's checks of the home itself: usable, ledger intact and migrated, private modes, leftover temp files,
// links in the store, and Docket files where pi-docket reads. Safe repairs run only with --fix.

import { isDocketError } from "../../domain/errors.js";
import { makePrivate, removeFiles, type HomeScan } from "../../files/home-scan.js";
import type { HomeLayout } from "../../files/home.js";
import { dirState, pathExists } from "../../files/probe.js";
import { findLegacyStatusFiles, removeLegacyStatusFiles } from "../../files/workers/legacy-status.js";
import { checkLedgerIntegrity } from "../../ledger/core/integrity.js";
import { pendingMigrations } from "../../ledger/core/migrate.js";
import { openReadOnlyRaw } from "../../ledger/core/read-only.js";
import { isProcessAlive } from "../../substrate/process.js";
import { ok, problem, samplePaths, type Finding } from "./findings.js";

const octal = (mode: number) => mode.toString(8).padStart(3, "0");

/** Whether the home exists as a directory; a missing one is fine (created on first use). */
export function checkHome(home: HomeLayout): { finding: Finding; exists: boolean } {
  const state = dirState(home.root);
  if (state.kind === "not-dir") {
    return {
      exists: false,
      finding: problem(
        "home",
        `${home.root} is a file, not a directory`,
        "point DOCKET_HOME at a directory, or move the file away",
      ),
    };
  }
  if (state.kind === "missing")
    return {
      exists: false,
      finding: ok("home", `${home.root} does not exist yet; Docket creates it (0700) on first use`),
    };
  if (state.kind === "unreadable") {
    return {
      exists: false,
      finding: problem(
        "home",
        `${home.root} cannot be inspected (${state.code})`,
        "point DOCKET_HOME at a directory you own",
      ),
    };
  }
  return { exists: true, finding: ok("home", home.root) };
}

/** quick_check, then the migration history; a damaged ledger says how to recover. */
export function checkLedger(home: HomeLayout): { finding: Finding; intact: boolean } {
  if (!pathExists(home.ledger))
    return { intact: true, finding: ok("ledger", "no ledger yet; Docket creates it (0600) on first use") };
  const integrity = checkLedgerIntegrity(home.ledger, 3);
  if (!integrity.ok) {
    return {
      intact: false,
      finding: problem(
        "ledger",
        `${home.ledger} is damaged: ${integrity.problems.join("; ")}`,
        `move it aside (mv ${home.ledger} ${home.ledger}.damaged) and restore a backup; without it Docket starts an empty ledger`,
      ),
    };
  }
  let pending: string[];
  try {
    const db = openReadOnlyRaw(home.ledger);
    try {
      pending = pendingMigrations(db).map((m) => `${m.version} (${m.name})`);
    } finally {
      db.close();
    }
  } catch (error) {
    if (!isDocketError(error)) throw error;
    return {
      intact: false,
      finding: problem("ledger", error.message, error.hint ?? "upgrade docket"),
    };
  }
  if (pending.length > 0) {
    return {
      intact: true,
      finding: {
        check: "ledger",
        severity: "warning",
        message: `quick_check ok; migration ${pending.join(", ")} not applied yet`,
        fix: "any docket command with write access applies it",
      },
    };
  }
  return { intact: true, finding: ok("ledger", "quick_check ok, migrations current") };
}

/** Group or other bits on anything Docket owns; --fix sets 0700 on directories and 0600 on files. */
export function checkModes(home: HomeLayout, scan: HomeScan, fix: boolean): Finding[] {
  const loose = scan.owned.filter((e) => (e.mode & 0o077) !== 0);
  if (loose.length === 0) return [ok("modes", "the home is 0700 and every file Docket keeps is private")];
  const root = loose.find((e) => e.path === home.root);
  const rest = loose.filter((e) => e !== root);
  let fixed = false;
  if (fix) {
    makePrivate(loose);
    fixed = true;
  }
  const findings: Finding[] = [];
  if (root) {
    findings.push({
      check: "modes",
      severity: "warning",
      fixed: fixed || undefined,
      message: `${home.root} is ${octal(root.mode)}: other users can look inside Docket's home`,
      fix: `run \`docket doctor --fix\` (or chmod 700 ${home.root})`,
    });
  }
  if (rest.length > 0) {
    findings.push({
      check: "modes",
      severity: "warning",
      fixed: fixed || undefined,
      paths: samplePaths(rest.map((e) => `${octal(e.mode)} ${e.path}`)),
      message: `${rest.length} file${rest.length === 1 ? "" : "s"} or director${rest.length === 1 ? "y" : "ies"} in the home can be read by other users`,
      fix: "run `docket doctor --fix` (files become 0600, directories 0700)",
    });
  }
  return findings;
}

/** Temp files of interrupted atomic writes; only those whose writer is gone are removed by --fix. */
export function checkTempFiles(scan: HomeScan, fix: boolean): Finding[] {
  if (scan.temps.length === 0) return [ok("temp-files", "no temp files left by interrupted writes")];
  const dead = scan.temps.filter((t) => !isProcessAlive(t.pid));
  const live = scan.temps.length - dead.length;
  if (dead.length === 0)
    return [ok("temp-files", `${live} temp file${live === 1 ? " is" : "s are"} being written by running processes`)];
  if (fix) removeFiles(dead.map((t) => t.path));
  return [
    {
      check: "temp-files",
      severity: "warning",
      fixed: fix || undefined,
      paths: samplePaths(dead.map((t) => t.path)),
      message: `${dead.length} temp file${dead.length === 1 ? "" : "s"} left by killed writers (no process ${dead.length === 1 ? "has" : "have"} their pid)`,
      fix: "run `docket doctor --fix` to remove them; no claimed version points at a temp file",
    },
  ];
}

/** Links Docket never follows, where its own files should be. */
export function checkLinks(scan: HomeScan): Finding[] {
  if (scan.links.length === 0) return [ok("links", "no symbolic links among Docket's files")];
  return [
    {
      check: "links",
      severity: "warning",
      paths: samplePaths(scan.links),
      message: `${scan.links.length} symbolic link${scan.links.length === 1 ? "" : "s"} where Docket keeps its files; Docket never follows them (listed as unreadable)`,
      fix: "replace each link with the real file or directory, or remove it",
    },
  ];
}

/** Docket status files under `workers/`, which make pi-docket's worker list throw in a shared home. */
export function checkPiDocketNeighbour(home: HomeLayout, fix: boolean): Finding[] {
  const found = findLegacyStatusFiles(home);
  if (found.length === 0)
    return [ok("pi-docket", "nothing Docket wrote is in workers/, where pi-docket lists its workers")];
  if (fix) removeLegacyStatusFiles(home);
  return [
    {
      check: "pi-docket",
      severity: "problem",
      fixed: fix || undefined,
      paths: samplePaths(found),
      message: `${found.length} Docket status file${found.length === 1 ? "" : "s"} in workers/, where pi-docket's worker list reads (and throws on them)`,
      fix: "run `docket doctor --fix` (or any docket command that writes) to remove them; they are projections, never read back",
    },
  ];
}
