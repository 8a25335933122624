// The pi launcher: where the `pi` CLI of our dependency lives, which models it lists, and its configured defaults.
// Models come from pi itself run with the same extra arguments workers get, so tests and demos see a faux model.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { installedPackage } from "../package-dir.js";

export interface PiModel {
  ref: string;
  reasoning: boolean;
}

let cliPath: string | undefined;

/** Absolute path of the pi CLI script of `@mariozechner/pi-coding-agent` (run it with `process.execPath`). */
export function resolvePiCli(): string {
  if (cliPath) return cliPath;
  const pkg = installedPackage("@mariozechner/pi-coding-agent");
  const bin = pkg?.manifest.bin;
  const script = typeof bin === "string" ? bin : (bin as Record<string, string> | undefined)?.pi;
  if (pkg === undefined || typeof script !== "string")
    throw new Error("cannot locate the pi CLI of @mariozechner/pi-coding-agent (reinstall with npm ci)");
  cliPath = resolve(pkg.dir, script);
  return cliPath;
}

/** `pi.extraArgs` from config, then `DOCKET_PI_ARGS` split on whitespace (no quoting: one word per argument). */
export function resolvePiExtraArgs(configArgs: readonly string[], envValue: string | undefined): string[] {
  const fromEnv = (envValue ?? "").split(/\s+/).filter(Boolean);
  return [...configArgs, ...fromEnv];
}

const modelCache = new Map<string, { at: number; models: PiModel[] }>();

/** Parses pi's `--list-models` table (`provider model context max-out thinking images`). */
export function parseModelList(text: string): PiModel[] {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const header = lines.findIndex((l) => /^provider\s+model\b/.test(l));
  if (header === -1) return [];
  const cols = lines[header]!.split(/\s+/);
  const thinkingCol = cols.indexOf("thinking");
  return lines.slice(header + 1).flatMap((line) => {
    const cells = line.split(/\s+/);
    if (cells.length < 2) return [];
    return [{ ref: `${cells[0]}/${cells[1]}`, reasoning: thinkingCol >= 0 && cells[thinkingCol] === "yes" }];
  });
}

/** How long a listing stored on disk is trusted (pi takes seconds to start; spawns come in bursts). */
export const MODEL_CACHE_TTL_MS = 5 * 60_000;

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** pi rewrites some files on every start without changing them: their content, not their mtime, decides. */
function contentHash(path: string): string {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return "";
  }
}

/** A JSON object file as an object; a missing file reads as `{}` (pi writes `{}` itself on its first run). */
function jsonObject(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** settings.json without the bookkeeping pi itself writes on start-up (it changes nothing about models). */
function stableSettings(path: string): string {
  const raw = jsonObject(path);
  if (!raw) return `unreadable:${contentHash(path)}`;
  delete raw.lastChangelogVersion;
  return JSON.stringify(raw);
}

/** Which providers auth.json holds credentials for: that decides the models, a refreshed token does not. */
function authProviders(path: string): string {
  const raw = jsonObject(path);
  return raw ? JSON.stringify(Object.keys(raw).sort()) : `unreadable:${contentHash(path)}`;
}

/**
 * What decides pi's model list: its arguments, agent dir files (models, which providers have auth, settings), the
 * extension files named with -e, the pi build, and which credential variables are set. Any change makes a new key;
 * the files pi writes on its own first run (`auth.json` as `{}`, `settings.json` with its changelog mark) do not.
 */
export function modelListKey(extraArgs: readonly string[], env: NodeJS.ProcessEnv, cwd: string): string {
  const agentDir = resolvePiAgentDir(env, env.HOME ?? "");
  const extensions = extraArgs.flatMap((a, i) =>
    i > 0 && (extraArgs[i - 1] === "-e" || extraArgs[i - 1] === "--extension") ? [resolve(cwd, a)] : [],
  );
  const credentialNames = Object.keys(env)
    .filter((k) => /KEY|TOKEN|SECRET|CREDENTIAL|PROJECT|REGION|ENDPOINT/i.test(k) && env[k])
    .sort();
  const parts = {
    extraArgs,
    cwd,
    agentDir,
    models: contentHash(join(agentDir, "models.json")),
    auth: authProviders(join(agentDir, "auth.json")),
    settings: stableSettings(join(agentDir, "settings.json")),
    extensions: extensions.map((e) => [e, mtimeOf(e)]),
    pi: mtimeOf(resolvePiCli()),
    credentialNames,
  };
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

interface CachedListing {
  at: number;
  models: PiModel[];
}

const isModelList = (v: unknown): v is PiModel[] =>
  Array.isArray(v) &&
  v.every(
    (m: unknown) =>
      typeof m === "object" &&
      m !== null &&
      "ref" in m &&
      typeof m.ref === "string" &&
      "reasoning" in m &&
      typeof m.reasoning === "boolean",
  );

function readCache(file: string, key: string, nowMs: number): CachedListing | undefined {
  try {
    const c: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (typeof c !== "object" || c === null || !("key" in c) || !("at" in c) || !("models" in c)) return undefined;
    if (c.key === key && typeof c.at === "number" && nowMs - c.at < MODEL_CACHE_TTL_MS && isModelList(c.models))
      return { at: c.at, models: c.models };
  } catch {
    // No cache yet, or a torn/foreign file: ask pi again.
  }
  return undefined;
}

function writeCache(file: string, key: string, nowMs: number, models: PiModel[]): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ key, at: nowMs, models }));
    renameSync(temp, file);
  } catch {
    // The cache only saves time; failing to write it costs the next spawn one pi start-up.
  }
}

export interface ModelListing {
  models: PiModel[];
  /** Set when the listing was not asked of pi just now: when pi produced the cached one (ms since the epoch). */
  cachedAt?: number;
}

export interface ListModelsOptions {
  cacheFile?: string;
  nowMs?: number;
  /** Single-flight across processes (a lock the caller holds): the first lists, the others then read its cache. */
  serialize?: <T>(fn: () => T) => T;
}

function askPi(extraArgs: readonly string[], env: NodeJS.ProcessEnv, cwd: string): PiModel[] {
  const r = spawnSync(process.execPath, [resolvePiCli(), ...extraArgs, "--list-models"], {
    cwd,
    env: { ...env, PI_OFFLINE: env.PI_OFFLINE ?? "1", PI_SKIP_VERSION_CHECK: "1" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  if (r.error) throw r.error;
  if (r.status !== 0)
    throw new Error(`pi --list-models exited ${r.status}: ${(r.stderr || r.stdout).trim().split("\n")[0]}`);
  // pi prints the table on stderr (0.73.1); read both streams.
  return parseModelList(`${r.stdout}\n${r.stderr}`);
}

/**
 * The models pi lists with these extra arguments and environment: cached per process, and in `cacheFile`
 * (when given) for a few minutes under a key of everything that decides the list.
 */
export function listModels(
  extraArgs: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  options: ListModelsOptions = {},
): ModelListing {
  const key = modelListKey(extraArgs, env, cwd);
  const nowMs = options.nowMs ?? Date.now();
  const cached = (): ModelListing | undefined => {
    const hit = modelCache.get(key);
    const stored =
      hit && nowMs - hit.at < MODEL_CACHE_TTL_MS
        ? hit
        : options.cacheFile
          ? readCache(options.cacheFile, key, nowMs)
          : undefined;
    if (!stored) return undefined;
    modelCache.set(key, stored);
    return { models: stored.models, cachedAt: stored.at };
  };
  const listed = (): ModelListing => {
    const models = askPi(extraArgs, env, cwd);
    modelCache.set(key, { at: nowMs, models });
    if (options.cacheFile && models.length > 0) writeCache(options.cacheFile, key, nowMs, models);
    return { models };
  };
  return cached() ?? (options.serialize ? options.serialize(() => cached() ?? listed()) : listed());
}

/** pi's configured default model (`provider/model`) and thinking level from `<agentDir>/settings.json`. */
export function piDefaults(agentDir: string): { model?: string; thinking?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8"));
  } catch {
    return {}; // no settings yet (fresh install) or unreadable: pi itself would fall back the same way
  }
  if (typeof raw !== "object" || raw === null) return {};
  const s = raw as { defaultProvider?: unknown; defaultModel?: unknown; defaultThinkingLevel?: unknown };
  const model =
    typeof s.defaultModel === "string" && s.defaultModel !== ""
      ? typeof s.defaultProvider === "string" &&
        s.defaultProvider !== "" &&
        !s.defaultModel.startsWith(`${s.defaultProvider}/`)
        ? `${s.defaultProvider}/${s.defaultModel}`
        : s.defaultModel
      : undefined;
  return { model, thinking: typeof s.defaultThinkingLevel === "string" ? s.defaultThinkingLevel : undefined };
}

/** `${PI_CODING_AGENT_DIR:-~/.pi/agent}` */
export function resolvePiAgentDir(env: NodeJS.ProcessEnv, home: string): string {
  return env.PI_CODING_AGENT_DIR ? resolve(env.PI_CODING_AGENT_DIR) : join(home, ".pi", "agent");
}
