// `docket compare b<N>` and `docket choose <exact ref>`: a best-of group's candidates side by side, and the one
// transaction that approves the version chosen, records the others as not chosen and stops them.

import type { Command } from "commander";
import { emit, type Io } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

export function registerGroupCommands(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "compare")
    .argument("<group>", "b<N>, as `docket spawn --best-of <N> <task>` printed it")
    .addHelpText(
      "after",
      [
        "",
        "Per candidate: worker, agent and model, state (a candidate still working says so), its current version's exact",
        "ref, files and +/− and hunks from the frozen patch, the tests it said it ran, spend, plan coverage when it",
        "started from a plan, and the files only it touched; then the files each pair of candidates both changed.",
        "Showing the comparison records what you saw: `docket choose <ref>` is refused if any candidate publishes after it.",
      ].join("\n"),
    )
    .action(async (group: string) => {
      const { compareGroup } = await import("../../../engine/groups/compare.js");
      const { formatComparison } = await import("../compare-lines.js");
      emit(io, compareGroup(engine(), group, { surface: "cli" }), formatComparison);
    });

  declareVerb(program, "choose")
    .argument("<ref>", "the exact version, as `docket compare <group>` prints it (worker-deliverable:w<N>:<K>)")
    .option("--reason <text>", "why the others were not chosen (recorded on each not-chosen decision)")
    .addHelpText(
      "after",
      [
        "",
        "The choice is bound to the comparison you were last shown: if any candidate published a new version since,",
        "it is refused (candidate-moved-since-shown) and nothing changes; compare again, then choose.",
        "The other candidates' versions stay readable and promotable (`docket promote <ref> --approve`).",
        "Then land the chosen one with `docket promote <ref>`.",
      ].join("\n"),
    )
    .action(async (ref: string, opts: { reason?: string }) => {
      const { chooseCandidate } = await import("../../../engine/groups/choose.js");
      const r = chooseCandidate(engine(), { ref, ...(opts.reason !== undefined ? { reason: opts.reason } : {}) });
      const { notes, ...json } = r;
      emit(io, json, () => notes);
    });
}
