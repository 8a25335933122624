// `docket doctor`: the home, the ledger's integrity, private modes, leftover temp files, links, the store index, tools.
// It opens nothing for writing unless --fix asks, so it works on a damaged ledger or a read-only home.

import { homeLayout, resolveHomeDir } from "../../files/home.js";
import { scanHome } from "../../files/home-scan.js";
import { isWritable } from "../../files/probe.js";
import { openEngine } from "../open.js";
import { reindexStore } from "../store/catalog.js";
import { problem, type DoctorReport, type Finding } from "./findings.js";
import {
  checkHome,
  checkLedger,
  checkLinks,
  checkModes,
  checkPiDocketNeighbour,
  checkTempFiles,
} from "./home-checks.js";
import { checkStoreIndex } from "./store-check.js";
import { checkDoor } from "./door-check.js";
import { checkNotify } from "./notify-checks.js";
import { checkNode, checkPi, checkTool } from "./tool-checks.js";
import { checkSandbox } from "./sandbox-check.js";

export type { DoctorReport, Finding, Severity } from "./findings.js";

export interface DoctorInput {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Repair the safe findings: modes, temp files of dead writers, the store index, Docket files in workers/. */
  fix: boolean;
}

export function runDoctor(input: DoctorInput): DoctorReport {
  const home = homeLayout(resolveHomeDir(input.env));
  const findings: Finding[] = [];
  const { finding, exists } = checkHome(home);
  findings.push(finding);
  try {
    if (exists) checkHomeFiles(home, input, findings);
  } catch (error) {
    // A better-sqlite3 that does not load here (built for another Node) stops the ledger's checks, not the doctor's.
    const code = (error as { code?: string }).code;
    if (code !== "native-module-abi" && code !== "native-module-missing") throw error;
    const e = error as Error & { hint?: string };
    findings.push(problem("sqlite", e.message, e.hint ?? "rebuild better-sqlite3"));
  }
  findings.push(
    checkNode({ version: process.version, modules: process.versions.modules, execPath: process.execPath }),
    checkTool("tmux"),
    checkTool("git"),
    checkPi(),
    checkSandbox(home, input.env, input.cwd),
    ...checkNotify(input.env),
  );
  return { home: home.root, ok: !findings.some((f) => f.severity === "problem" && !f.fixed), findings };
}

/** The checks of an existing home: its ledger, modes, temp files, links, door and (with an intact ledger) the store. */
function checkHomeFiles(home: ReturnType<typeof homeLayout>, input: DoctorInput, findings: Finding[]): void {
  const fix = input.fix && isWritable(home.root); // read-only: nothing can be repaired here
  if (input.fix && !fix)
    findings.push({
      check: "fix",
      severity: "warning",
      message: `${home.root} is read-only, so nothing was repaired`,
      fix: "make it writable and run `docket doctor --fix` again",
    });
  const ledger = checkLedger(home);
  findings.push(ledger.finding);
  const scan = scanHome(home);
  findings.push(
    ...checkModes(home, scan, fix),
    ...checkTempFiles(scan, fix),
    ...checkLinks(scan),
    ...checkPiDocketNeighbour(home, fix),
    ...checkDoor(home, fix, input.env),
  );
  if (ledger.intact && ledger.finding.severity === "ok") {
    findings.push(
      checkStoreIndex(home, fix, () => {
        const ctx = openEngine({ env: input.env, cwd: input.cwd });
        try {
          reindexStore(ctx);
        } finally {
          ctx.close();
        }
      }),
    );
  }
}
