// `docket doctor [--fix]`: what is wrong with this Docket home and its tools, each finding with what to do.
// Exits 1 while a problem remains (a damaged ledger, a missing tool); warnings alone exit 0.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { DoctorReport } from "../../../engine/doctor/doctor.js";
import { DocketError } from "../../../domain/errors.js";
import { declareVerb } from "./registry.js";

const MARK = { ok: "ok  ", warning: "warn", problem: "FAIL" } as const;

export function registerDoctorCommand(program: Command, io: Io): void {
  declareVerb(program, "doctor")
    .option(
      "--fix",
      "repair the safe findings: file modes, temp files of dead writers, the store index, Docket files where pi-docket reads",
    )
    .action(async (opts: { fix?: boolean }) => {
      const { runDoctor } = await import("../../../engine/doctor/doctor.js");
      const report = runDoctor({ env: process.env, cwd: process.cwd(), fix: Boolean(opts.fix) });
      if (report.ok) return emit(io, report, formatDoctor);
      // Problems remain: the report is printed (text) or rides inside the one refusal object (JSON), exit 1.
      if (!io.json) io.out(formatDoctor(report).join("\n"));
      const problems = report.findings.filter((f) => f.severity === "problem" && !f.fixed).length;
      throw new DocketError(
        "refusal",
        "doctor-problems",
        `${problems} problem${problems === 1 ? "" : "s"} remain${problems === 1 ? "s" : ""} in ${report.home}`,
        {
          hint: "each finding says what to do; `docket doctor --fix` repairs the safe ones",
          details: { home: report.home, ok: report.ok, findings: report.findings },
        },
      );
    });
}

function formatDoctor(r: DoctorReport): string[] {
  const lines = [`Docket home ${r.home}`];
  for (const f of r.findings) {
    lines.push(`${f.fixed ? "fixed" : MARK[f.severity]}  ${f.check.padEnd(11)} ${f.message}`);
    for (const p of f.paths ?? []) lines.push(`        ${p}`);
    if (f.fix && !f.fixed) lines.push(`        → ${f.fix}`);
  }
  const warnings = r.findings.filter((f) => f.severity === "warning" && !f.fixed).length;
  const also = warnings === 0 ? "" : `; ${warnings} warning${warnings === 1 ? "" : "s"} above, each with what to do`;
  lines.push(r.ok ? `no problems${also}` : `problems found: see FAIL above${also}`);
  return lines;
}
