// `docket comment` and `docket comments`: the human's draft comments on lines of one exact frozen version, which the
// next `docket revise` sends as one message. Text and --json read the same result objects.

import type { Command } from "commander";
import { usageError } from "../../../domain/errors.js";
import { formatAnchor } from "../../../domain/review/comment-anchor.js";
import type { CommentView } from "../../../engine/review/comments.js";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

interface CommentFlags {
  old?: boolean;
  edit?: string;
  delete?: string;
  key?: string;
}

/** One comment as text: id, state, where, the quoted lines, the comment. */
export function formatComment(c: CommentView): string[] {
  const state = c.state === "sent" ? `sent with ${c.decision}` : c.outdated ? "outdated draft (never sent)" : c.state;
  return [
    `${c.id} · ${state} · v${c.version} · ${formatAnchor(c.anchor)}`,
    ...c.quoted.map((q) => `    > ${q}`),
    ...c.text.split("\n").map((l) => `    ${l}`),
  ];
}

export function registerCommentCommands(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "comment")
    .argument("[args...]", "<w|ref> <file>[:<line>[-<line>]] <text...>, or with --edit <id>: the new text")
    .option("--old", "the line numbers are on the old side of the patch (removed lines); default: the new side")
    .option("--edit <id>", "change the text of a draft comment")
    .option("--delete <id>", "delete a draft comment")
    .option("--key <key>", "idempotency key: repeating the same call returns the first result")
    .action(async (args: string[], opts: CommentFlags) => {
      const comments = await import("../../../engine/review/comments.js");
      if (opts.edit !== undefined && opts.delete !== undefined)
        throw usageError("bad-flags", "give --edit or --delete, not both");
      let c: CommentView;
      let verb: string;
      if (opts.delete !== undefined) {
        if (args.length > 0) throw usageError("bad-flags", "--delete <id> takes no other arguments");
        c = comments.deleteComment(engine(), { id: opts.delete, key: opts.key });
        verb = "deleted";
      } else if (opts.edit !== undefined) {
        if (args.length === 0)
          throw usageError("bad-flags", "give the new text: `docket comment --edit <id> <text...>`");
        c = comments.editComment(engine(), { id: opts.edit, text: args.join(" "), key: opts.key });
        verb = "edited";
      } else {
        if (args.length < 3)
          throw usageError(
            "bad-flags",
            "give <w|ref> <file>:<line>[-<line>] <text...> (a file alone comments on the whole file): `docket comment <w> <file>:<line> <text>`",
          );
        const [target, location, ...words] = args as [string, string, ...string[]];
        c = comments.addComment(engine(), {
          target,
          location,
          side: opts.old ? "old" : "new",
          text: words.join(" "),
          key: opts.key,
        });
        verb = "drafted";
      }
      emit(io, { comment: c }, (r) => [
        ...formatComment(r.comment),
        `  ${verb}; \`docket revise ${r.comment.worker}\` sends every draft of v${r.comment.version} as one message`,
      ]);
    });

  declareVerb(program, "comments")
    .argument("<w|ref>", "w<N> (all its versions) or worker-deliverable:w<N>:<K> (that version)")
    .action(async (target: string) => {
      const { listComments } = await import("../../../engine/review/comments.js");
      const list = listComments(engine(), target);
      emit(io, list, (r) => {
        if (r.comments.length === 0) return `${r.worker} has no review comments (current version v${r.current})`;
        const drafts = r.comments.filter((c) => c.state === "draft" && !c.outdated).length;
        return [
          `${r.worker} · current version v${r.current} · ${r.comments.length} comment${r.comments.length === 1 ? "" : "s"}, ${drafts} draft${drafts === 1 ? "" : "s"} to send`,
          ...r.comments.flatMap(formatComment),
        ];
      });
    });
}
