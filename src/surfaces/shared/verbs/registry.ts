// The verb table of the `docket` CLI, in help order: every command's name, usage and description as plain data, and
// per group a loader for the module that registers it — so a command line loads only its own verb's group.

import type { Command } from "commander";
import type { Io } from "../io.js";
import type { EngineOpener } from "../session.js";

/** Registers a group's verbs; they reach the engine only through the opener they are handed (never a global). */
export type CommandGroup = (program: Command, io: Io, engine: EngineOpener) => void;

export interface VerbEntry {
  name: string;
  /** What help prints after the name (`[options] <task...>`), exactly as the registered command would. */
  usage: string;
  description: string;
  /** A group verb's subcommands (`worker report`, …), for completion in other hosts. */
  subcommands?: readonly string[];
  /** Run by workers and agents, never typed by the human: pi's `/docket help` leaves it out. */
  agentSide?: true;
}

export interface VerbGroup {
  load(): Promise<CommandGroup>;
  /** The heading `docket --help` lists this group's verbs under (the README's verb table). */
  heading: string;
  verbs: readonly VerbEntry[];
}

/** `docket --help`'s headings, in the order it prints them. */
const HEADING = {
  TRY: "Try it:",
  WORKERS: "Workers:",
  REVIEW: "Review:",
  SEVERAL: "Several workers:",
  HANDOFF: "Hand-off:",
  ITEMS: "Work items:",
  STORED: "Stored deliverables:",
  SPEND: "Spend and notifications:",
  DOORS: "Doors and health:",
  WORKER_SIDE: "Worker side (run by workers, identity from their environment):",
} as const;

export const HELP_HEADINGS: readonly string[] = Object.values(HEADING);

// Each group declares its verbs from these rows (declareVerb); a test keeps the usages and subcommands each registers
// in step (test/surfaces/cli/verb-table.test.ts).
export const VERB_GROUPS: readonly VerbGroup[] = [
  {
    load: async () => (await import("./demo.js")).registerDemoCommand,
    heading: HEADING.TRY,
    verbs: [
      {
        name: "demo",
        usage: "[options]",
        description:
          "watch the whole loop run on a scratch repository: plan → approve → implement → verdict → promote → ledger (no model key needed)",
      },
    ],
  },
  {
    load: async () => (await import("./workers.js")).registerWorkersCommands,
    heading: HEADING.WORKERS,
    verbs: [
      {
        name: "spawn",
        usage: "[options] <task...>",
        description: "start one worker (pi by default) in its own tmux window",
      },
      {
        name: "respawn",
        usage: "[options] <worker>",
        description: "start a worker again with its stored execution, at the next generation (old process fenced)",
      },
      {
        name: "ls",
        usage: "[options]",
        description: "list this project's workers (--all: every project, settled ones too)",
      },
      { name: "show", usage: "<worker>", description: "one worker in detail, with its messages and launches" },
      {
        name: "peek",
        usage: "[options] <worker>",
        description: "the last lines of a worker's pane (no model context spent)",
      },
      {
        name: "tell",
        usage: "[options] <worker> <text...>",
        description:
          "send a worker a message through its inbox (steers the current turn; --after waits for it); a command worker gets it pasted into its pane",
      },
      {
        name: "attach",
        usage: "<worker>",
        description: "look at a worker's window (switches inside tmux, otherwise prints the command)",
      },
      {
        name: "delete",
        usage: "[options] <worker>",
        description: "delete one worker: window, workspace, row (deliverables stay)",
      },
      {
        name: "prune",
        usage: "[options]",
        description: "delete workers settled for longer than worker.pruneAfterHours (never forces)",
      },
    ],
  },
  {
    load: async () => (await import("./hosts.js")).registerHostsCommands,
    heading: HEADING.WORKERS,
    verbs: [
      {
        name: "hosts",
        usage: "",
        description: "machines workers may run on over ssh (kept in your user config)",
        subcommands: ["add", "ls", "rm", "check"],
      },
    ],
  },
  {
    load: async () => (await import("./review.js")).registerReviewCommands,
    heading: HEADING.REVIEW,
    verbs: [
      {
        name: "approve",
        usage: "[options] <w|ref>",
        description: "approve one exact deliverable version (records judgment only: sends, queues and starts nothing)",
      },
      {
        name: "reject",
        usage: "[options] <w|ref>",
        description: "reject one exact deliverable version (supersedes an earlier approval of that version)",
      },
      {
        name: "revise",
        usage: "[options] <w|ref> [note...]",
        description:
          "send a review note and the version's draft comments bound to one exact version; the worker's next done becomes the next version",
      },
      {
        name: "answer",
        usage: "[options] <w> [text...]",
        description:
          "answer a worker's open question (the oldest, or --q <id>); without text, pick one of its options; the answer is a decision too",
      },
      {
        name: "promote",
        usage: "[options] <w|ref>",
        description:
          "apply the frozen patch of an exactly approved version (or of a stored record) to your checkout (working tree, no commit)",
      },
      {
        name: "discard",
        usage: "[options] <w>",
        description: "drop a worker's live changes (its workspace goes back to its base); the frozen versions stay",
      },
      {
        name: "verdict",
        usage: "[options] [w|ref]",
        description:
          "the review card of a worker's exact version; without a worker, the queue of workers needing judgment",
      },
      { name: "log", usage: "[options]", description: "decisions: counts per verb, recent rows, and decision debt" },
    ],
  },
  {
    load: async () => (await import("./comments.js")).registerCommentCommands,
    heading: HEADING.REVIEW,
    verbs: [
      {
        name: "comment",
        usage: "[options] [args...]",
        description:
          "draft a comment on lines of a version's frozen patch: <w|ref> <file>:<line>[-<line>] <text> (a file alone: the whole file); --edit/--delete a draft",
      },
      {
        name: "comments",
        usage: "<w|ref>",
        description: "the review comments on a worker's versions (drafts, sent, outdated), or on one exact version",
      },
    ],
  },
  {
    load: async () => (await import("./combine.js")).registerCombineCommand,
    heading: HEADING.SEVERAL,
    verbs: [
      {
        name: "combine",
        usage: "[options] [a] [b]",
        description:
          "merge two workers' overlapping frozen change sets (git merge-tree, no checkout touched) into one combined version you review and promote",
      },
    ],
  },
  {
    load: async () => (await import("./groups.js")).registerGroupCommands,
    heading: HEADING.SEVERAL,
    verbs: [
      {
        name: "compare",
        usage: "<group>",
        description: "a best-of group's candidates side by side: version, files +/−, hunks, tests, spend, overlap",
      },
      {
        name: "choose",
        usage: "[options] <ref>",
        description:
          "approve one candidate's exact version, record the others as not chosen and stop them (one transaction)",
      },
    ],
  },
  {
    load: async () => (await import("./broadcast.js")).registerBroadcastCommands,
    heading: HEADING.SEVERAL,
    verbs: [
      {
        name: "broadcast",
        usage: "[options] [text...]",
        description:
          "tell the running workers a change concerns: each is scored affected / maybe / unrelated with the reason; you confirm who gets it",
      },
      {
        name: "journal",
        usage: "[options]",
        description:
          "the project journal: what landed in this project (promotions, crediting every worker) and what was posted to everyone",
      },
    ],
  },
  {
    load: async () => (await import("./web.js")).registerWebCommand,
    heading: HEADING.DOORS,
    verbs: [
      {
        name: "web",
        usage: "[options]",
        description:
          "the review page in your browser: queue, cards with the frozen diff, fleet, log, store (loopback only)",
      },
    ],
  },
  {
    load: async () => (await import("./use.js")).registerUseCommands,
    heading: HEADING.HANDOFF,
    verbs: [
      {
        name: "use",
        usage: "[options] <w|ref>",
        description:
          "use an approved current version: --implement starts an implementer on an approved plan; --parent queues its full text for your next prompt; --worker starts one fresh worker with it",
      },
      {
        name: "chips",
        usage: "[options]",
        description: "chips queued for your pi session's next prompt (Use → Parent)",
        subcommands: ["drop"],
      },
    ],
  },
  {
    load: async () => (await import("./items.js")).registerItemCommands,
    heading: HEADING.ITEMS,
    verbs: [
      {
        name: "item",
        usage: "",
        description: "the human's work items: todos (t<N>) and requests (r<N>)",
        subcommands: ["add", "edit", "reply", "show", "ls"],
      },
    ],
  },
  {
    load: async () => (await import("./worker.js")).registerWorkerCommands,
    heading: HEADING.WORKER_SIDE,
    verbs: [
      {
        agentSide: true,
        name: "worker",
        usage: "",
        description:
          "worker-side protocol: report, todos, wait, done, fail, consult, note (identity from the environment)",
        subcommands: [
          "report",
          "reconcile",
          "done",
          "wait",
          "todos",
          "consult",
          "note",
          "fail",
          "exited",
          "heartbeat",
          "hook",
          "gate",
        ],
      },
    ],
  },
  {
    load: async () => (await import("./dispatch.js")).registerDispatchCommands,
    heading: HEADING.ITEMS,
    verbs: [
      {
        name: "dispatch",
        usage: "[options] <worker> <items...>",
        description: "hand open items to a worker: one binding and one obligation per item, one work envelope",
      },
    ],
  },
  {
    load: async () => (await import("./attention.js")).registerAttentionCommands,
    heading: HEADING.ITEMS,
    verbs: [
      {
        name: "attention",
        usage: "[options]",
        description: "list pending notifications (blocked items, outcomes); --dismiss <id> clears one",
      },
    ],
  },
  {
    load: async () => (await import("./spend.js")).registerSpendCommand,
    heading: HEADING.SPEND,
    verbs: [
      {
        name: "spend",
        usage: "[options]",
        description: "tokens and cost per worker, item, kind or day, read from each agent's own records",
      },
    ],
  },
  {
    load: async () => (await import("./notify.js")).registerNotifyCommands,
    heading: HEADING.SPEND,
    verbs: [
      {
        name: "notify",
        usage: "",
        description: "notifications outside the terminal (desktop, review page, your command, terminal)",
        subcommands: ["test"],
      },
    ],
  },
  {
    load: async () => (await import("./obligations.js")).registerObligationCommands,
    heading: HEADING.ITEMS,
    verbs: [
      {
        name: "obligations",
        usage: "[options]",
        description: "list owed obligations (--due: due now and not parked; --all: include resolved)",
      },
      { name: "obligation", usage: "", description: "park or unpark one obligation", subcommands: ["park", "unpark"] },
    ],
  },
  {
    load: async () => (await import("./kinds.js")).registerKindsCommand,
    heading: HEADING.WORKERS,
    verbs: [
      {
        name: "kinds",
        usage: "",
        description: "list worker kinds (built-in, user, project) with their authority and warnings",
      },
    ],
  },
  {
    load: async () => (await import("./deliverables.js")).registerDeliverableCommands,
    heading: HEADING.REVIEW,
    verbs: [
      {
        name: "report",
        usage: "[options] <worker-or-ref>",
        description: "a worker's frozen deliverable: outcome, summary, evidence, items, files and the full body",
      },
      {
        name: "diff",
        usage: "[options] <worker-or-ref>",
        description: "the frozen patch of a worker's deliverable or a stored record, as `git apply` accepts it",
      },
    ],
  },
  {
    load: async () => (await import("./store.js")).registerStoreCommands,
    heading: HEADING.STORED,
    verbs: [
      {
        name: "save",
        usage: "[options]",
        description:
          "save an approved worker version (--from) or a human-authored record (--author) to the DeliverableStore",
      },
      {
        name: "deliverables",
        usage: "[options]",
        description: "list the DeliverableStore (from the ledger's index), unreadable records, and legacy bundles",
      },
      {
        name: "load",
        usage: "[ref]",
        description: "mount a stored deliverable (or legacy bundle) as a d<N> slot; it costs no model context",
      },
      {
        name: "preview",
        usage: "<ref>",
        description: "print a stored deliverable or legacy bundle in full (inspection only)",
      },
      { name: "unload", usage: "<slot>", description: "unmount a d<N> slot" },
      { name: "deliverable", usage: "", description: "manage one stored deliverable", subcommands: ["delete"] },
    ],
  },
  {
    load: async () => (await import("./doctor.js")).registerDoctorCommand,
    heading: HEADING.DOORS,
    verbs: [
      {
        name: "doctor",
        usage: "[options]",
        description:
          "check the home: ledger integrity, private file modes, leftover temp files, store index, tmux, git and pi",
      },
    ],
  },
  {
    load: async () => (await import("./mcp.js")).registerMcpCommand,
    heading: HEADING.DOORS,
    verbs: [
      {
        agentSide: true,
        name: "mcp",
        usage: "",
        description:
          "serve the worker protocol (docket_todos, docket_wait, docket_done, docket_fail, docket_consult, docket_note) over MCP on stdio, for Claude Code, Codex and other agents",
      },
    ],
  },
];

/** The help heading of a top-level verb (its group's). */
export function helpHeadingOf(verb: string): string {
  return groupOf(verb)?.heading ?? HELP_HEADINGS[HELP_HEADINGS.length - 1]!;
}

/** The group that registers `verb`, if any. */
export function groupOf(verb: string | undefined): VerbGroup | undefined {
  return verb === undefined ? undefined : VERB_GROUPS.find((g) => g.verbs.some((v) => v.name === verb));
}

/** A top-level verb as its group declares it, described by its row here: help says it one way, loaded or not. */
export function declareVerb(program: Command, name: string): Command {
  const entry = VERB_GROUPS.flatMap((g) => g.verbs).find((v) => v.name === name);
  if (entry === undefined) throw new Error(`${name} is not in the verb table (shared/verbs/registry.ts)`);
  return program.command(name).description(entry.description);
}
