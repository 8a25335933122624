// `docket save|deliverables|load|preview|unload|deliverable delete`: the DeliverableStore from the command line.
// Each command parses flags, makes one engine call and renders the same result object as text or --json.

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { INPUT_CAP_TEXT } from "../../../engine/protocol/input.js";
import { declareVerb } from "./registry.js";

interface SaveFlags {
  from?: string;
  author?: string;
  outcome?: string;
  summary?: string;
}

export function registerStoreCommands(program: Command, io: Io, engine: EngineOpener): void {
  registerSaving(program, io, engine);
  registerSlots(program, io, engine);
  registerDeletion(program, io, engine);
}

/** `docket save` and `deliverables`: putting a version into the store, and listing what it holds. */
function registerSaving(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "save")
    .option(
      "--from <w|ref>",
      "the worker (its current version) or worker-deliverable:<w>:<v>; it must be exactly approved",
    )
    .option(
      "--author <file|->",
      `a regular file or pipe (or - for stdin) of at most ${INPUT_CAP_TEXT} holding a human-authored body; saved as a new v1 record`,
    )
    .option("--outcome <outcome>", "with --author: proposal, findings or completed")
    .option("--summary <text>", "with --author: the summary (default: the body's first non-empty line)")
    .action(async (opts: SaveFlags) => {
      if ((opts.from === undefined) === (opts.author === undefined))
        throw usageError("bad-flag", "give exactly one of --from <w|ref> or --author <file|->");
      if (opts.from !== undefined && (opts.outcome !== undefined || opts.summary !== undefined)) {
        throw usageError("bad-flag", "--outcome and --summary go with --author; a worker version keeps its own");
      }
      if (opts.author !== undefined && opts.outcome === undefined)
        throw usageError("bad-flag", "--author needs --outcome <proposal|findings|completed>");
      const { saveAuthored, saveFromWorker } = await import("../../../engine/store/save.js");
      const saved =
        opts.from !== undefined
          ? saveFromWorker(engine(), { from: opts.from })
          : saveAuthored(engine(), { bodyFile: opts.author!, outcome: opts.outcome!, summary: opts.summary });
      emit(io, { ref: saved.ref, id: saved.id, version: saved.version, idempotent: saved.idempotent }, (r) =>
        r.idempotent ? `already saved: ${r.ref} (${saved.path})` : `saved ${r.ref} (${saved.path})`,
      );
    });

  declareVerb(program, "deliverables")
    .option("--unsupported", "only the records this build cannot load, with reason and path")
    .option("--reindex", "rebuild the index from the files first")
    .option("--include-consumed", "also list consumed legacy bundles")
    .action(async (opts: { unsupported?: boolean; reindex?: boolean; includeConsumed?: boolean }) => {
      const { listStoredDeliverables, reindexStore } = await import("../../../engine/store/catalog.js");
      const { listLegacy } = await import("../../../engine/store/legacy.js");
      const ctx = engine();
      const rebuilt = opts.reindex ? reindexStore(ctx) : undefined;
      const listing = listStoredDeliverables(ctx);
      const legacy = opts.unsupported ? [] : listLegacy(ctx, { includeConsumed: Boolean(opts.includeConsumed) });
      const result = {
        deliverables: opts.unsupported ? [] : listing.deliverables,
        unsupported: listing.unsupported.map((u) => ({ path: u.path, reason: u.reason })),
        ...(legacy.length > 0
          ? {
              legacy: legacy.map((b) => ({
                ref: b.ref,
                id: b.id,
                title: b.title,
                createdAt: b.createdAt,
                consumed: b.consumed,
              })),
            }
          : {}),
      };
      emit(io, result, () => {
        const lines: string[] = [];
        if (rebuilt) lines.push(`reindexed: ${rebuilt.records} records, ${rebuilt.unsupported} unsupported`);
        for (const d of result.deliverables)
          lines.push(`${d.ref}  ${d.outcome.padEnd(9)} ${d.savedAt.slice(0, 16).replace("T", " ")}  ${d.summary}`);
        for (const u of listing.unsupported)
          lines.push(`deliverable:unreadable  ${u.reason}  ${u.path}  (${u.detail})`);
        for (const b of legacy)
          lines.push(
            `${b.ref}  legacy    ${b.createdAt.slice(0, 16).replace("T", " ")}  ${b.title}${b.consumed ? "  [consumed]" : ""}`,
          );
        if (lines.length === 0)
          lines.push(opts.unsupported ? "no unsupported records" : "the DeliverableStore is empty");
        return lines;
      });
    });
}

/** `docket load`, `preview` and `unload`: the d<N> slots a stored deliverable is mounted in, and reading one. */
function registerSlots(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "load")
    .argument("[ref]", "deliverable:<id>:<v>, an id or prefix, checkpoint:<id>, or last", "last")
    .action(async (ref: string) => {
      const { loadStored } = await import("../../../engine/store/slots.js");
      const loaded = loadStored(engine(), ref);
      emit(io, { slot: loaded.slot, ref: loaded.ref }, (r) =>
        loaded.created ? `loaded ${r.ref} as ${r.slot}` : `${r.ref} is already loaded as ${r.slot}`,
      );
    });

  declareVerb(program, "preview")
    .argument("<ref>", "deliverable:<id>:<v>, an id or prefix, a d<N> slot, checkpoint:<id>, or last")
    .action(async (ref: string) => {
      const { previewStored } = await import("../../../engine/store/slots.js");
      const p = previewStored(engine(), ref);
      emit(io, p, (r) => {
        const head = r.record
          ? [
              `${r.ref} · ${r.record.outcome} · saved ${r.record.savedAt}${r.slot ? ` · loaded as ${r.slot}` : ""}`,
              `source: ${r.record.source.kind === "worker" ? `${r.record.source.deliverable.ref} (${r.record.source.task})` : "human-authored"}`,
              `approval: ${r.record.approval.decisionId} at ${r.record.approval.decidedAt}`,
              ...(r.record.changeSet
                ? [`patch: ${r.record.changeSet.files.length} files, ${r.record.changeSet.hunks} hunks`]
                : []),
              ...r.record.reviewNotes.map((n) => `review note (${n.createdAt}): ${n.text}`),
            ]
          : [
              `${r.ref} · legacy bundle · ${r.bundle?.createdAt ?? ""}${r.slot ? ` · loaded as ${r.slot}` : ""}`,
              `artifacts: ${r.artifacts?.length ?? 0}`,
            ];
        return [...head, "", r.body];
      });
    });

  declareVerb(program, "unload")
    .argument("<slot>", "d<N> (or the ref it holds)")
    .action(async (slot: string) => {
      const { unloadStored } = await import("../../../engine/store/slots.js");
      const r = unloadStored(engine(), slot);
      emit(io, r, (x) => (x.unloaded ? `unloaded ${x.slot} (${x.ref})` : `${x.slot} was already unloaded (${x.ref})`));
    });
}

/** `docket deliverable delete`: exactly one stored version, confirmed. */
function registerDeletion(program: Command, io: Io, engine: EngineOpener): void {
  const deliverable = declareVerb(program, "deliverable");
  deliverable
    .command("delete")
    .description("delete exactly one stored version (or one legacy bundle); confirms unless --yes")
    .argument("<ref>", "deliverable:<id>:<v>, an id or prefix, checkpoint:<id>, or last")
    .option("--yes", "do not ask for confirmation")
    .action(async (ref: string, opts: { yes?: boolean }) => {
      const { deleteStored, describeDeleteTarget } = await import("../../../engine/store/slots.js");
      const ctx = engine();
      let confirmed = Boolean(opts.yes);
      let name = ref;
      if (!confirmed && io.interactive) {
        const t = describeDeleteTarget(ctx, ref);
        name = t.ref;
        confirmed = await io.confirm(`Delete ${t.ref} (${t.summary}) at ${t.path}?`);
        if (!confirmed) {
          io.err("cancelled; nothing was deleted");
          return;
        }
      }
      const r = deleteStored(ctx, name, { confirmed });
      emit(
        io,
        r,
        (x) =>
          `deleted ${x.ref} (${x.deleted.join(", ")})${x.unloadedSlots ? `; unloaded ${x.unloadedSlots} slot(s)` : ""}`,
      );
    });
}
