// Scores each running worker as affected / maybe / unrelated by a broadcast's text, with the reason in words.
// Paths a worker edited or its approved plan names are evidence; a read, a common file name, an identifier or task
// words are hints.

import { matchPath, pathsInText, type PathMatch } from "./project-paths.js";

export type BroadcastBand = "affected" | "maybe" | "unrelated";

export interface BroadcastCandidate {
  worker: string;
  kind: string;
  task: string;
  /** Files it changed: its frozen change set and live edits, in project coordinates. */
  edited: readonly string[];
  /** Files it only read. */
  read: readonly string[];
  /** Files its approved plan declares. */
  planned: readonly string[];
}

export interface BroadcastSubject {
  text: string;
  /** Paths the text names (pathsInText), plus any the caller knows (a note's worker's files, a promotion's files). */
  paths: readonly string[];
  /** Workers a note suggested as recipients: proposed as affected, never sent to without the human. */
  addressed?: readonly string[];
  /** The worker a note came from: never a recipient of its own note. */
  from?: string;
}

export interface BroadcastRow {
  worker: string;
  kind: string;
  task: string;
  band: BroadcastBand;
  reason: string;
}

const STOPWORDS = new Set(
  (
    "the and for are but not you all any can had her was one our out day get has him his how man new now old see two way who boy did its let put say she too use " +
    "that with have this will your from they know want been good much some time very when come here just like long make many more only over such take than them " +
    "well were what into also after before should would could there their then these those which while about again because being both each every other under until " +
    "where why does done doing please make sure need needs using used work worker workers file files change changes changed code everyone everybody note notes " +
    "something anything nothing thing things able via per off"
  ).split(" "),
);

/** Words of three or more letters, lower-cased, without stopwords, in order of first appearance. */
export function contentWords(text: string): string[] {
  const seen = new Set<string>();
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/))
    if (w.length >= 3 && !STOPWORDS.has(w) && !/^[0-9]+$/.test(w)) seen.add(w);
  return [...seen];
}

/** Identifiers: a backticked token without spaces (over 2 characters), or a camelCase / snake_case word (over 3). */
export function identifiersInText(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/`([^`\s]{3,})`/g)) found.add(m[1]!);
  for (const m of text.matchAll(/\b([a-z]+[A-Z][A-Za-z0-9]*|[A-Za-z]+_[A-Za-z0-9_]+)\b/g))
    if (m[1]!.length > 3) found.add(m[1]!);
  return [...found].filter((id) => !id.includes("/"));
}

/** The subject of a broadcast of `text`: the paths it names in project coordinates, plus extra known paths. */
export function broadcastSubject(
  text: string,
  options: { projectRoot?: string; extraPaths?: readonly string[]; addressed?: readonly string[]; from?: string } = {},
): BroadcastSubject {
  const paths = [...new Set([...pathsInText(text, options.projectRoot), ...(options.extraPaths ?? [])])];
  return {
    text,
    paths,
    ...(options.addressed ? { addressed: options.addressed } : {}),
    ...(options.from ? { from: options.from } : {}),
  };
}

const STRONG: readonly PathMatch[] = ["exact", "suffix", "name"];

function firstMatch(
  named: readonly string[],
  touched: readonly string[],
  strong: boolean,
): { named: string; touched: string } | undefined {
  for (const t of touched) {
    for (const n of named) {
      const m = matchPath(n, t);
      if (m && STRONG.includes(m) === strong) return { named: n, touched: t };
    }
  }
  return undefined;
}

/** One candidate's band and reason. */
export function scoreCandidate(
  subject: BroadcastSubject,
  c: BroadcastCandidate,
  words: readonly string[],
  ids: readonly string[],
): { band: BroadcastBand; reason: string } {
  if (subject.addressed?.includes(c.worker))
    return { band: "affected", reason: `addressed by ${subject.from ?? "the note"}` };
  const edited = firstMatch(subject.paths, c.edited, true);
  if (edited) return { band: "affected", reason: `edits ${edited.touched}` };
  const planned = firstMatch(subject.paths, c.planned, true);
  if (planned) return { band: "affected", reason: `plan names ${planned.touched}` };
  const read = firstMatch(subject.paths, c.read, true);
  if (read) return { band: "maybe", reason: `read ${read.touched}` };
  const common = firstMatch(subject.paths, [...c.edited, ...c.planned], false);
  if (common) return { band: "maybe", reason: `edits ${common.touched} (a common file name)` };
  const haystack = `${c.task}\n${[...c.edited, ...c.planned, ...c.read].join("\n")}`.toLowerCase();
  const id = ids.find((i) => haystack.includes(i.toLowerCase()));
  if (id) return { band: "maybe", reason: `mentions ${id}` };
  const taskWords = new Set(contentWords(c.task));
  const shared = words.filter((w) => taskWords.has(w));
  if (shared.length >= 2) return { band: "maybe", reason: `task overlaps: ${shared.slice(0, 3).join(", ")}` };
  return { band: "unrelated", reason: "no overlap found" };
}

const RANK: Record<BroadcastBand, number> = { affected: 0, maybe: 1, unrelated: 2 };
const seq = (w: string): number => Number(w.replace(/\D/g, "")) || 0;

/** Every candidate scored, affected first, then maybe, then unrelated; by worker number within a band. */
export function scoreBroadcast(subject: BroadcastSubject, candidates: readonly BroadcastCandidate[]): BroadcastRow[] {
  const words = contentWords(subject.text);
  const ids = identifiersInText(subject.text);
  return candidates
    .filter((c) => c.worker !== subject.from)
    .map((c) => ({ worker: c.worker, kind: c.kind, task: c.task, ...scoreCandidate(subject, c, words, ids) }))
    .sort((a, b) => RANK[a.band] - RANK[b.band] || seq(a.worker) - seq(b.worker));
}
