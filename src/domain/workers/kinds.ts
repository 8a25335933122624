// Worker kinds: intent and authority only (read-only, plan gate, decision rights, soft limits, prompt additions).
// Kind files are untrusted markdown; a malformed one is reported and skipped, never fatal
// (docs/decisions/spawn-policy.md).

import { BUILTIN_KINDS } from "./builtin-kinds.js";
import { parseFrontmatter, type FrontmatterValue } from "./frontmatter.js";
import { isNetworkMode, NETWORK_MODES, type NetworkMode } from "../network-policy.js";

export { BUILTIN_KINDS } from "./builtin-kinds.js";

export interface WorkerKind {
  name: string;
  description: string;
  readOnly: boolean;
  planGate: boolean;
  decisionRights: string[];
  maxArtifacts?: number;
  maxMinutes?: number;
  guardrailsAppend?: string;
  /** The network its contained workers get, narrowed from the config's (a kind can only narrow: `none`, `allow`). */
  network?: NetworkMode;
  body: string;
  source: "builtin" | "user" | "project";
  path?: string;
  legacy: { model?: string; thinking?: string; parentSeed?: "full" | "fresh"; defaultWorktree?: boolean };
  warnings: string[];
}

export type KindFileSource = "user" | "project";

export interface KindFile {
  source: KindFileSource;
  path: string;
  text: string;
}

export interface KindDiagnostic {
  path: string;
  message: string;
}

export interface KindRegistry {
  kinds: Map<string, WorkerKind>;
  diagnostics: KindDiagnostic[];
}

export const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh"] as const;
export const MAX_DECISION_RIGHTS = 8;
const KIND_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** Lowercase, spaces to `-`; undefined when the result is not a usable kind name. */
export function normalizeKindName(value: string): string | undefined {
  const name = value.trim().toLowerCase().replace(/\s+/g, "-");
  return KIND_NAME.test(name) ? name : undefined;
}

/** `read-only`, `plan-gated` or `writable`: the one word every surface shows for a kind's authority. */
export function kindAuthority(
  kind: Pick<WorkerKind, "readOnly" | "planGate">,
): "read-only" | "plan-gated" | "writable" {
  return kind.readOnly ? "read-only" : kind.planGate ? "plan-gated" : "writable";
}

type Field =
  | "name"
  | "description"
  | "readOnly"
  | "planGate"
  | "decisionRights"
  | "maxArtifacts"
  | "maxMinutes"
  | "maxSeconds"
  | "guardrailsAppend"
  | "model"
  | "thinking"
  | "parentSeed"
  | "defaultWorktree"
  | "layout"
  | "canSpawn"
  | "network";

/** Accepted spellings, compared after lowercasing and dropping `_` and `-`. */
const SYNONYMS: Record<string, Field> = {
  name: "name",
  description: "description",
  readonly: "readOnly",
  plangate: "planGate",
  decisionrights: "decisionRights",
  rights: "decisionRights",
  maxartifacts: "maxArtifacts",
  maxminutes: "maxMinutes",
  maxdurationsec: "maxSeconds",
  timeout: "maxSeconds",
  guardrailsappend: "guardrailsAppend",
  model: "model",
  thinking: "thinking",
  parentseed: "parentSeed",
  parentseedpolicy: "parentSeed",
  seed: "parentSeed",
  defaultworktree: "defaultWorktree",
  worktree: "defaultWorktree",
  layout: "layout",
  canspawn: "canSpawn",
  spawnkinds: "canSpawn",
  subagentagents: "canSpawn",
  network: "network",
};

const LEGACY_KEYS: Record<string, string> = {
  model: "model",
  thinking: "thinking",
  parentSeed: "parent_seed",
  defaultWorktree: "default_worktree",
};

/** Parses one kind file. Bad values make the whole file malformed (error); ignored keys become warnings. */
export function parseKindFile(
  text: string,
  source: KindFileSource,
  path: string,
): { kind?: WorkerKind; error?: string } {
  const fm = parseFrontmatter(text);
  if (!fm.ok) return { error: fm.error };
  const collected = collectFields(fm.entries);
  if ("error" in collected) return { error: collected.error };
  const { fields, warnings } = collected;
  const problems: string[] = [];
  const read = fieldReader(fields, problems);

  const rawName = read.str("name") ?? stemOf(path);
  const name = normalizeKindName(rawName);
  if (!name) problems.push(`name ${JSON.stringify(rawName)} is not a kind name (letters, digits, - and _, at most 32)`);
  const description = read.str("description") ?? "";
  const readOnly = read.bool("readOnly") ?? false;
  const planGate = read.bool("planGate") ?? false;
  const maxArtifacts = read.int("maxArtifacts");
  let maxMinutes = read.int("maxMinutes");
  const maxSeconds = read.int("maxSeconds");
  if (maxSeconds !== undefined) {
    if (maxMinutes !== undefined) problems.push("set max_minutes or max_duration_sec, not both");
    else maxMinutes = Math.ceil(maxSeconds / 60);
  }
  const guardrailsAppend = read.str("guardrailsAppend") || undefined;
  const network = read.str("network");
  if (network !== undefined && !isNetworkMode(network))
    problems.push(`network must be one of ${NETWORK_MODES.join(", ")}, got ${JSON.stringify(network)}`);
  let decisionRights = rightsOf(fields.get("decisionRights")?.value);
  if (decisionRights.length > MAX_DECISION_RIGHTS) {
    warnings.push(
      `decision_rights has ${decisionRights.length} entries; only the first ${MAX_DECISION_RIGHTS} are used`,
    );
    decisionRights = decisionRights.slice(0, MAX_DECISION_RIGHTS);
  }
  const legacy = legacyOf(read, problems);
  if (problems.length > 0) return { error: problems.join("; ") };

  return {
    kind: {
      name: name!,
      description,
      readOnly,
      planGate,
      decisionRights,
      ...(maxArtifacts !== undefined ? { maxArtifacts } : {}),
      ...(maxMinutes !== undefined ? { maxMinutes } : {}),
      ...(guardrailsAppend ? { guardrailsAppend } : {}),
      ...(network !== undefined && isNetworkMode(network) ? { network } : {}),
      body: fm.body,
      source,
      path,
      legacy,
      warnings: [...deprecations(fields, "before"), ...warnings, ...deprecations(fields, "after")],
    },
  };
}

type Fields = Map<Field, { key: string; value: FrontmatterValue }>;

/** Each frontmatter key under its field (synonyms folded); an unknown key is a warning, a field set twice an error. */
function collectFields(
  entries: readonly { key: string; value: FrontmatterValue }[],
): { fields: Fields; warnings: string[] } | { error: string } {
  const fields: Fields = new Map();
  const warnings: string[] = [];
  for (const entry of entries) {
    const field = SYNONYMS[entry.key.toLowerCase().replace(/[_-]/g, "")];
    if (!field) {
      warnings.push(`unknown key ${entry.key} ignored`);
      continue;
    }
    const prior = fields.get(field);
    if (prior) return { error: `${entry.key} and ${prior.key} both set ${field}; keep one` };
    fields.set(field, { key: entry.key, value: entry.value });
  }
  return { fields, warnings };
}

interface FieldReader {
  str(f: Field): string | undefined;
  bool(f: Field): boolean | undefined;
  int(f: Field): number | undefined;
}

/** Typed reads of the fields; a value of the wrong shape is added to `problems` and reads as unset. */
function fieldReader(fields: Fields, problems: string[]): FieldReader {
  const str = (f: Field): string | undefined => {
    const e = fields.get(f);
    if (!e) return undefined;
    if (Array.isArray(e.value)) {
      problems.push(`${e.key} must be a single value, not a list`);
      return undefined;
    }
    return e.value.trim();
  };
  const bool = (f: Field): boolean | undefined => {
    const v = str(f);
    if (v === undefined || v === "") return undefined;
    const b = parseBoolean(v);
    if (b === undefined) problems.push(`${fields.get(f)!.key} must be true or false, got ${JSON.stringify(v)}`);
    return b;
  };
  const int = (f: Field): number | undefined => {
    const v = str(f);
    if (v === undefined || v === "") return undefined;
    if (!/^[0-9]{1,9}$/.test(v) || Number(v) === 0) {
      problems.push(`${fields.get(f)!.key} must be a positive whole number, got ${JSON.stringify(v)}`);
      return undefined;
    }
    return Number(v);
  };
  return { str, bool, int };
}

/** The execution choices older kind files made (model, thinking, parent seed, worktree), read for the deprecation path. */
function legacyOf(read: FieldReader, problems: string[]): WorkerKind["legacy"] {
  const legacy: WorkerKind["legacy"] = {};
  const model = read.str("model");
  if (model) legacy.model = model;
  const thinking = read.str("thinking")?.toLowerCase();
  if (thinking) {
    if ((THINKING_LEVELS as readonly string[]).includes(thinking)) legacy.thinking = thinking;
    else problems.push(`thinking must be one of ${THINKING_LEVELS.join(", ")}, got ${JSON.stringify(thinking)}`);
  }
  const seed = read.str("parentSeed")?.toLowerCase();
  if (seed) {
    if (["full", "seed", "seeded", "true", "yes", "on"].includes(seed)) legacy.parentSeed = "full";
    else if (["fresh", "none", "false", "no", "off"].includes(seed)) legacy.parentSeed = "fresh";
    else problems.push(`parent_seed must be full or fresh, got ${JSON.stringify(seed)}`);
  }
  const worktree = read.bool("defaultWorktree");
  if (worktree !== undefined) legacy.defaultWorktree = worktree;
  return legacy;
}

/** What the file sets that Docket no longer reads: the execution keys first, the moved-out keys after other warnings. */
function deprecations(fields: Fields, where: "before" | "after"): string[] {
  if (where === "after") {
    return [
      ...(fields.has("layout") ? ["layout ignored; operator layouts moved out of core."] : []),
      ...(fields.has("canSpawn") ? ["can_spawn ignored; worker creation is human-only."] : []),
    ];
  }
  const legacyKeys = Object.keys(LEGACY_KEYS)
    .filter((k) => fields.has(k as Field))
    .map((k) => LEGACY_KEYS[k]);
  return legacyKeys.length === 0
    ? []
    : [
        `deprecated execution frontmatter (${legacyKeys.join(", ")}); move execution choices to docket spawn flags or worker config before the next major release.`,
      ];
}

/** Built-ins first, then each file in the order given (user before project): later wins by name. */
export function buildKindRegistry(files: KindFile[]): KindRegistry {
  const kinds = new Map<string, WorkerKind>();
  for (const kind of BUILTIN_KINDS)
    kinds.set(kind.name, {
      ...kind,
      decisionRights: [...kind.decisionRights],
      legacy: { ...kind.legacy },
      warnings: [],
    });
  const diagnostics: KindDiagnostic[] = [];
  for (const file of files) {
    const parsed = parseKindFile(file.text, file.source, file.path);
    if (!parsed.kind) {
      diagnostics.push({ path: file.path, message: parsed.error ?? "unreadable kind file" });
      continue;
    }
    const kind = parsed.kind;
    const prior = kinds.get(kind.name);
    const loosened = prior && kind.source === "project" ? wideningOf(prior, kind) : [];
    const execution = kind.source === "project" ? executionWideningOf(kind) : [];
    if (loosened.length > 0 || execution.length > 0) {
      // A cloned repository must not loosen what a worker may do: it may add kinds, or tighten existing ones.
      const what = [
        ...(loosened.length > 0 ? [`${loosened.join(" and ")} of the ${prior!.source} kind`] : []),
        ...execution,
      ];
      diagnostics.push({
        path: file.path,
        message: `project kind ${kind.name} would ${what.join(" and ")}; skipped (only your user kinds may widen authority)`,
      });
      continue;
    }
    if (prior) {
      const where = prior.source === "builtin" ? "the built-in kind" : `the ${prior.source} kind from ${prior.path}`;
      kind.warnings.push(`replaces ${where} ${kind.name}`);
    }
    kinds.set(kind.name, kind);
  }
  return { kinds, diagnostics };
}

/** What a replacement loosens compared with the kind it replaces (read-only lifted, plan gate removed). */
export function wideningOf(prior: WorkerKind, next: WorkerKind): string[] {
  const out: string[] = [];
  if (prior.readOnly && !next.readOnly) out.push("lift read-only");
  if (prior.planGate && !next.planGate) out.push("remove the plan gate");
  return out;
}

/**
 * What a kind's legacy execution keys would choose that a project file may not: turning isolation
 * off (a writable worker in your checkout, no change set to review), picking a model or thinking, seeding context.
 * `default_worktree: true` and `parent_seed: fresh` only narrow.
 */
export function executionWideningOf(kind: Pick<WorkerKind, "legacy">): string[] {
  const out: string[] = [];
  if (kind.legacy.defaultWorktree === false) out.push("turn worktree isolation off (default_worktree: false)");
  if (kind.legacy.model !== undefined) out.push(`pick the model (model: ${kind.legacy.model})`);
  if (kind.legacy.thinking !== undefined) out.push(`pick the thinking level (thinking: ${kind.legacy.thinking})`);
  if (kind.legacy.parentSeed === "full") out.push("seed the worker with your conversation (parent_seed: full)");
  return out;
}

export function parseBoolean(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (["true", "yes", "y", "on", "1"].includes(v)) return true;
  if (["false", "no", "n", "off", "0"].includes(v)) return false;
  return undefined;
}

function rightsOf(value: FrontmatterValue | undefined): string[] {
  if (value === undefined) return [];
  const parts = Array.isArray(value) ? value : value.split(/;|\n/);
  return parts.map((p) => p.replace(/\s+/g, " ").trim()).filter((p) => p !== "");
}

function stemOf(path: string): string {
  const base = path.split(/[\\/]/).pop() ?? path;
  return base.replace(/\.md$/i, "");
}
