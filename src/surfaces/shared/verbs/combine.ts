// `docket combine <w|ref> <w|ref> [--to <w>] | --continue | --abort`: merge two workers' overlapping frozen change sets
// into one combined version, resolve its conflicts in a scratch folder, or hand both sides to one of the workers.

import { quotePath } from "../../../domain/text/quote-path.js";
import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

interface CombineFlags {
  to?: string;
  continue?: boolean;
  abort?: boolean;
}

export function registerCombineCommand(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "combine")
    .argument("[a]", "a worker or exact ref (w<N>, worker-deliverable:w<N>:<K>)")
    .argument("[b]", "the other worker or ref")
    .option("--to <w>", "hand both sides and what git could not merge to this worker (one of the two) instead")
    .option(
      "--continue",
      "freeze the files you resolved in the scratch folder (refused while any conflict marker remains)",
    )
    .option("--abort", "drop the combine waiting for resolution; both versions stay open")
    .addHelpText(
      "after",
      [
        "",
        "Clean: a new version combined:w<N>+w<M>:<K> is frozen; approve and promote it like any version (both workers are credited).",
        "Conflicts: each contested file is written in diff3 form (sides labelled by worker and task) to a scratch folder",
        "in your Docket home; edit them there, then --continue. The two source versions are closed as combined once frozen.",
      ].join("\n"),
    )
    .action(async (a: string | undefined, b: string | undefined, flags: CombineFlags) => {
      const combine = await import("../../../engine/review/combine.js");
      const ctx = engine();
      if (flags.continue || flags.abort) {
        if (flags.continue && flags.abort)
          throw usageError("bad-flags", "--continue and --abort contradict each other; pick one");
        if (a !== undefined || flags.to !== undefined)
          throw usageError(
            "bad-flags",
            `--${flags.continue ? "continue" : "abort"} takes no workers: it acts on the combine waiting in this project`,
          );
        if (flags.abort) {
          const r = combine.abortCombine(ctx);
          emit(io, { outcome: "aborted", combination: r.combination, decisions: r.decisions }, () => r.notes);
          return;
        }
        return render(io, combine.continueCombine(ctx));
      }
      if (a === undefined || b === undefined)
        throw usageError("bad-flags", "name the two workers to combine: `docket combine <w> <w>`");
      render(
        io,
        combine.combineChangeSets(ctx, { sources: [a, b], ...(flags.to !== undefined ? { to: flags.to } : {}) }),
      );
    });
}

function render(io: Io, r: import("../../../engine/review/combine.js").CombineResult): void {
  const { notes, ...json } = r;
  emit(io, json, () => [
    ...(r.outcome === "combined"
      ? [
          `${r.deliverable.ref} · ${r.files.length} file${r.files.length === 1 ? "" : "s"}`,
          ...r.files.map((f) => `  ${f}`),
        ]
      : []),
    ...(r.outcome === "conflicts"
      ? [
          `${r.combination} · ${r.summary}`,
          ...r.contested.map(
            (c) => `  ${quotePath(c.path)} · ${c.kind} · ${c.conflicts} conflict${c.conflicts === 1 ? "" : "s"}`,
          ),
        ]
      : []),
    ...notes.map((n) => `  ${n}`),
  ]);
}
