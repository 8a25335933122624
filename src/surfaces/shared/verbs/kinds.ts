// `docket kinds`: every kind a spawn may name, grouped by source, with its authority and warnings.
// --json keeps the contract on stdout; malformed kind files are reported on stderr, never fatal.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit, warn } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

export function registerKindsCommand(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "kinds").action(async () => {
    const { listKinds } = await import("../../../engine/workers/kinds.js");
    const { kindAuthority } = await import("../../../domain/workers/kinds.js");
    const { listAgents } = await import("../../../engine/workers/agents.js");
    const { formatAgents } = await import("./workers.js");
    const listing = listKinds(engine());
    warn(io, listing.configWarnings);
    if (io.json)
      warn(
        io,
        listing.diagnostics.map((d) => `kind file ${d.path} skipped: ${d.message}`),
      );
    const result = {
      kinds: listing.kinds.map((k) => ({
        name: k.name,
        source: k.source,
        readOnly: k.readOnly,
        planGate: k.planGate,
        warnings: [...k.warnings],
      })),
    };
    emit(io, result, () => {
      const lines: string[] = [];
      const heading = {
        builtin: "built-in",
        user: `user (${listing.dirs.user})`,
        project: `project (${listing.dirs.project})`,
      };
      for (const source of ["builtin", "user", "project"] as const) {
        const group = listing.kinds.filter((k) => k.source === source);
        if (group.length === 0) continue;
        if (lines.length > 0) lines.push("");
        lines.push(heading[source]);
        for (const k of group) {
          lines.push(`  ${k.name} · ${kindAuthority(k)}${k.name === listing.defaultKind ? " (default)" : ""}`);
          if (k.description) lines.push(`    ${k.description}`);
          if (k.decisionRights.length > 0) lines.push("    rights:", ...k.decisionRights.map((r) => `      - ${r}`));
          for (const w of k.warnings) lines.push(`    warning: ${w}`);
        }
      }
      if (listing.diagnostics.length > 0) {
        lines.push("", "skipped kind files (fix them to use them):");
        for (const d of listing.diagnostics) lines.push(`  ${d.path}: ${d.message}`);
      }
      lines.push(
        "",
        "agents (docket spawn --agent <agent>; --dry-run shows the whole command):",
        ...formatAgents(listAgents(process.env.PATH)),
      );
      lines.push("", `spawn with: docket spawn --as <kind> <task>  (without --as: ${listing.defaultKind})`);
      return lines;
    });
  });
}
