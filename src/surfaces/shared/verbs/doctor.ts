// `docket doctor [--fix]`: what is wrong with this Docket home and its tools, each finding with what to do.
// Exits 1 while a problem remains (a damaged ledger, a missing tool); warnings alone exit 0.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { DoctorReport } from "../../../engine/doctor/doctor.js";

const MARK = { ok: "ok  ", warning: "warn", problem: "FAIL" } as const;

export function registerDoctorCommand(program: Command, io: Io): void {
  program
    .command("doctor")
    .description("check the home: ledger integrity, private file modes, leftover temp files, store index, tmux, git and pi")
    .option("--fix", "repair the safe findings: file modes, temp files of dead writers, the store index, Docket files where pi-docket reads")
    .action(async (opts: { fix?: boolean }) => {
      const { runDoctor } = await import("../../../engine/doctor/doctor.js");
      const report = runDoctor({ env: process.env, cwd: process.cwd(), fix: Boolean(opts.fix) });
      emit(io, report, formatDoctor);
      if (!report.ok) io.refused = true;
    });
}

function formatDoctor(r: DoctorReport): string[] {
  const lines = [`Docket home ${r.home}`];
  for (const f of r.findings) {
    lines.push(`${f.fixed ? "fixed" : MARK[f.severity]}  ${f.check.padEnd(11)} ${f.message}`);
    for (const p of f.paths ?? []) lines.push(`        ${p}`);
    if (f.fix && !f.fixed) lines.push(`        → ${f.fix}`);
  }
  lines.push(r.ok ? "no problems" : "problems found: see FAIL above");
  return lines;
}
