// Legacy checkpoint bundles of the anchor tool (`checkpoints/<id>.md` + `.artifacts.json`, `index.json`, `events.ndjson`).
// Compatibility only: list, read and delete, never through a symlink; nothing is ever written in that format
// (docs/decisions/deliverable-store.md).

import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { internalError, notFound, refusal } from "../../domain/errors.js";
import { isSafeName } from "../../domain/ids.js";
import type { HomeLayout } from "../home.js";
import { entryKind, linkBelow, readNoFollow } from "../no-follow.js";

export interface LegacyBundle {
  id: string;
  ref: string;
  path: string;
  title: string;
  createdAt: string;
  consumed: boolean;
  artifactsPath?: string;
}

export interface LegacyBundleRead {
  bundle: LegacyBundle;
  body: string;
  /** The bundle's artifact list as stored, or [] when absent or unreadable. */
  artifacts: unknown[];
}

export const legacyRef = (id: string): string => `checkpoint:${id}`;

export function parseLegacyRef(ref: string): string | undefined {
  const m = /^checkpoint:(.+)$/.exec(ref.trim());
  return m && isSafeName(m[1]!) ? m[1] : undefined;
}

const checkpointsDir = (home: HomeLayout): string => join(home.root, "checkpoints");
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The text of a regular file, or undefined when absent, a link, or unreadable (metadata is optional). */
function readTextLoose(path: string): string | undefined {
  const read = readNoFollow(path);
  return read.ok === true ? read.bytes.toString("utf8") : undefined;
}

function readJsonLoose(path: string): unknown {
  const text = readTextLoose(path);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // damaged metadata: the bundle is still listed from its own .md file
  }
}

/** index.json entries by id, whatever container shape the old tool used (array, {checkpoints|bundles|entries}, or a map). */
function readIndex(home: HomeLayout): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const path of [join(checkpointsDir(home), "index.json"), join(home.root, "index.json")]) {
    const raw = readJsonLoose(path);
    const container = isObject(raw) ? (raw.checkpoints ?? raw.bundles ?? raw.entries ?? raw) : raw;
    const entries: [string | undefined, unknown][] = Array.isArray(container)
      ? container.map((e) => [undefined, e])
      : isObject(container)
        ? Object.entries(container)
        : [];
    for (const [key, e] of entries) {
      if (!isObject(e)) continue;
      const id = typeof e.id === "string" ? e.id : key;
      if (id && !out.has(id)) out.set(id, e);
    }
  }
  return out;
}

/** Replays events.ndjson: consumed / unconsumed toggle, purged / swept remove. Damaged lines are skipped. */
function replayEvents(home: HomeLayout): Map<string, "consumed" | "unconsumed" | "purged"> {
  const state = new Map<string, "consumed" | "unconsumed" | "purged">();
  for (const path of [join(checkpointsDir(home), "events.ndjson"), join(home.root, "events.ndjson")]) {
    const text = readTextLoose(path);
    if (text === undefined) continue; // no event log at this place
    for (const line of text.split("\n")) {
      let e: unknown;
      try {
        e = JSON.parse(line);
      } catch {
        continue; // a torn or foreign line says nothing about any bundle
      }
      if (!isObject(e)) continue;
      const kind = String(e.type ?? e.kind ?? e.event ?? "");
      const id = e.id ?? e.checkpointId ?? e.bundleId;
      if (typeof id !== "string") continue;
      if (kind === "checkpoint_consumed") state.set(id, "consumed");
      else if (kind === "checkpoint_unconsumed" || kind === "checkpoint_saved") state.set(id, "unconsumed");
      else if (kind === "checkpoint_purged" || kind === "checkpoint_swept") state.set(id, "purged");
    }
  }
  return state;
}

function describe(
  home: HomeLayout,
  id: string,
  meta: Record<string, unknown> | undefined,
  consumed: boolean,
): LegacyBundle {
  const dir = checkpointsDir(home);
  const path = join(dir, `${id}.md`);
  let createdAt =
    typeof meta?.createdAt === "string" ? meta.createdAt : typeof meta?.savedAt === "string" ? meta.savedAt : "";
  if (!createdAt) createdAt = new Date(lstatSync(path).mtimeMs).toISOString();
  const titleFromMeta = [meta?.title, meta?.summary, meta?.name].find(
    (v): v is string => typeof v === "string" && v.trim() !== "",
  );
  let title = titleFromMeta?.trim();
  if (!title) {
    const first = (readTextLoose(path) ?? "").split(/\r?\n/).find((l) => l.trim() !== "");
    title = first?.replace(/^#+\s*/, "").trim() || id;
  }
  const artifactsPath = join(dir, `${id}.artifacts.json`);
  const hasArtifacts = entryKind(artifactsPath) === "file"; // a bundle without (regular) artifacts is still a bundle
  return { id, ref: legacyRef(id), path, title, createdAt, consumed, ...(hasArtifacts ? { artifactsPath } : {}) };
}

function checkpointEntries(home: HomeLayout): { name: string; file: boolean; link: boolean }[] {
  if (linkBelow(home.root, checkpointsDir(home))) return [];
  try {
    return readdirSync(checkpointsDir(home), { withFileTypes: true })
      .filter((e) => e.name.endsWith(".md") && !e.name.startsWith(".") && isSafeName(e.name.slice(0, -3)))
      .map((e) => ({ name: e.name.slice(0, -3), file: e.isFile(), link: e.isSymbolicLink() }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw internalError(
      "legacy-scan-failed",
      `cannot list ${checkpointsDir(home)}: ${(error as Error).message}`,
      error,
    );
  }
}

/** Every bundle that still has its `.md` file, newest first; consumed ones only with `includeConsumed`. */
export function listLegacyBundles(home: HomeLayout, options: { includeConsumed?: boolean } = {}): LegacyBundle[] {
  const names = checkpointEntries(home)
    .filter((e) => e.file)
    .map((e) => e.name);
  if (names.length === 0) return [];
  const index = readIndex(home);
  const events = replayEvents(home);
  return names
    .filter((id) => events.get(id) !== "purged")
    .map((id) => describe(home, id, index.get(id), events.get(id) === "consumed" || index.get(id)?.consumed === true))
    .filter((b) => options.includeConsumed || !b.consumed)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id.localeCompare(b.id)));
}

/** Links where bundles or their folder should be: listed as unreadable with the reason, never followed. */
export function listLegacyLinks(home: HomeLayout): { path: string; reason: "symlink"; detail: string }[] {
  const detail =
    "a symbolic link; Docket never follows links among legacy bundles (move the real file in, or remove the link)";
  const dir = linkBelow(home.root, checkpointsDir(home));
  if (dir) return dir.kind === "symlink" ? [{ path: dir.path, reason: "symlink", detail }] : [];
  return checkpointEntries(home)
    .filter((e) => e.link)
    .map((e) => ({ path: join(checkpointsDir(home), `${e.name}.md`), reason: "symlink", detail }));
}

export function readLegacyBundle(home: HomeLayout, id: string): LegacyBundleRead | undefined {
  if (!isSafeName(id)) return undefined;
  if (linkBelow(home.root, checkpointsDir(home))) return undefined;
  const path = join(checkpointsDir(home), `${id}.md`);
  const read = readNoFollow(path);
  if (read.ok !== true) return undefined; // absent, a link or unreadable: the caller reports not found
  const body = read.bytes.toString("utf8");
  const events = replayEvents(home);
  const meta = readIndex(home).get(id);
  const bundle = describe(home, id, meta, events.get(id) === "consumed" || meta?.consumed === true);
  const raw = bundle.artifactsPath ? readJsonLoose(bundle.artifactsPath) : undefined;
  const artifacts = Array.isArray(raw) ? raw : isObject(raw) && Array.isArray(raw.artifacts) ? raw.artifacts : [];
  return { bundle, body, artifacts };
}

/** Deletes one bundle's own files (`.md`, `.artifacts.json`); the old index and event log are left untouched. */
export function deleteLegacyBundle(home: HomeLayout, id: string): { paths: string[] } {
  const link = listLegacyLinks(home).find(
    (l) => l.path === checkpointsDir(home) || l.path === join(checkpointsDir(home), `${id}.md`),
  );
  if (link)
    throw refusal(
      "store-symlink",
      `${legacyRef(id)} is not deleted: ${link.path} is ${link.detail}`,
      "remove the link yourself if it should go",
    );
  const read = readLegacyBundle(home, id);
  if (!read)
    throw notFound(
      "legacy-not-found",
      `no legacy bundle ${legacyRef(id)}`,
      "run `docket deliverables` to see what exists",
    );
  const paths = [read.bundle.path, ...(read.bundle.artifactsPath ? [read.bundle.artifactsPath] : [])];
  for (const p of paths) {
    try {
      unlinkSync(p);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return { paths };
}
