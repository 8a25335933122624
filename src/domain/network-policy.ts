// A contained worker's network: none, only the hosts its agent needs plus `network.allow` (through Docket's proxy), or
// the machine's own. Pure rules: narrowing, host[:port] patterns, the hosts a launch needs, one request's verdict.

import { AGENT_TRAITS, type WorkerAgent } from "./agents/traits.js";

/** `none`: no network; `allow`: only allowed hosts, through Docket's egress proxy; `open`: the machine's network. */
export type NetworkMode = "none" | "allow" | "open";
export const NETWORK_MODES: readonly NetworkMode[] = ["none", "allow", "open"];
export const DEFAULT_NETWORK_MODE: NetworkMode = "allow";

const RANK: Record<NetworkMode, number> = { none: 0, allow: 1, open: 2 };

export const isNetworkMode = (v: unknown): v is NetworkMode => (NETWORK_MODES as readonly unknown[]).includes(v);

/** The narrower of two modes (a project or a kind may only narrow what the user config gives). */
export function narrowNetwork(a: NetworkMode, b: NetworkMode): NetworkMode {
  return RANK[a] <= RANK[b] ? a : b;
}

/** Whether `to` keeps or narrows `from`. */
export const narrows = (from: NetworkMode, to: NetworkMode): boolean => RANK[to] <= RANK[from];

/** One allowed destination: an exact host or `*.suffix` (any subdomain, not the suffix itself), one port or any. */
export interface AllowPattern {
  host: string;
  wildcard: boolean;
  port?: number;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** A host name or IPv4 address as Docket compares it: lower case, no trailing dot; undefined when it is neither. */
function normalHost(raw: string): string | undefined {
  const host = raw.toLowerCase().replace(/\.$/, "");
  if (IPV4.test(host)) return host;
  if (host.length > 253 || !host.split(".").every((l) => LABEL.test(l))) return undefined;
  return host;
}

function parsePort(raw: string): number | undefined {
  if (!/^[0-9]{1,5}$/.test(raw)) return undefined;
  const port = Number(raw);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** `host`, `host:port`, `*.example.com` or `*.example.com:443`; undefined for anything else. */
export function parseAllowPattern(text: string): AllowPattern | undefined {
  const m = /^(\*\.)?([^:*\s]+)(?::([0-9]+))?$/.exec(text.trim());
  if (!m) return undefined;
  const host = normalHost(m[2]!);
  if (host === undefined || (m[1] && IPV4.test(host))) return undefined;
  if (m[3] === undefined) return { host, wildcard: Boolean(m[1]) };
  const port = parsePort(m[3]);
  return port === undefined ? undefined : { host, wildcard: Boolean(m[1]), port };
}

/** The patterns that do not parse, for the config's one-line warning. */
export function badAllowPatterns(list: readonly string[]): string[] {
  return list.filter((p) => parseAllowPattern(p) === undefined);
}

export function matchesAllow(pattern: AllowPattern, host: string, port: number): boolean {
  if (pattern.port !== undefined && pattern.port !== port) return false;
  return pattern.wildcard ? host.endsWith(`.${pattern.host}`) : host === pattern.host;
}

/** A URL's host and port (its scheme's default port), as an exact pattern; undefined when it is not http(s). */
function urlDestination(url: string): AllowPattern | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
  const host = normalHost(parsed.hostname.replace(/^\[|\]$/g, ""));
  if (host === undefined) return undefined;
  const port = parsed.port ? Number(parsed.port) : parsed.protocol === "https:" ? 443 : 80;
  return { host, wildcard: false, port };
}

const ANTHROPIC_DEFAULT_URL = "https://api.anthropic.com";
const OPENAI_DEFAULT_URL = "https://api.openai.com/v1";

/** Where pi's built-in providers live, for a pi model named `<provider>/<model>` without a models.json entry. */
export const PI_PROVIDER_URLS: Readonly<Record<string, string>> = {
  anthropic: ANTHROPIC_DEFAULT_URL,
  openai: OPENAI_DEFAULT_URL,
  google: "https://generativelanguage.googleapis.com",
  openrouter: "https://openrouter.ai",
  groq: "https://api.groq.com",
  xai: "https://api.x.ai",
  mistral: "https://api.mistral.ai",
  cerebras: "https://api.cerebras.ai",
  deepseek: "https://api.deepseek.com",
};

/** What a launch tells about where its agent's model lives. */
export interface AgentNeeds {
  agent: WorkerAgent;
  /** The worker's launch environment (its --env values and passed variables). */
  env: Readonly<Record<string, string>>;
  /** Codex's `-c` arguments (`model_providers.<name>={…base_url="…"…}`, `openai_base_url=…`). */
  codexArgs?: readonly string[];
  /** The base URLs of pi's providers (its models config), when pi is the agent and not on Docket's scripted model. */
  piBaseUrls?: readonly string[];
}

/** The model API URLs a launch's agent needs to reach (a command worker: none of its own). */
export function neededUrls(needs: AgentNeeds): string[] {
  switch (AGENT_TRAITS[needs.agent].modelApi) {
    case "anthropic":
      return [needs.env.ANTHROPIC_BASE_URL || ANTHROPIC_DEFAULT_URL];
    case "openai": {
      const fromArgs = (needs.codexArgs ?? []).flatMap((a) =>
        [...a.matchAll(/base_url\s*=\s*"([^"]+)"/g)].map((m) => m[1]!),
      );
      return [needs.env.OPENAI_BASE_URL || OPENAI_DEFAULT_URL, ...fromArgs];
    }
    case "pi-providers":
      return [...(needs.piBaseUrls ?? [])];
    case "none":
      return [];
  }
}

/** The destinations one launch may reach: its agent's model APIs and the user's `sandbox.allow`. */
export function launchAllowList(needs: AgentNeeds, allow: readonly string[]): AllowPattern[] {
  const derived = neededUrls(needs)
    .map(urlDestination)
    .filter((d): d is AllowPattern => d !== undefined);
  const given = allow.map(parseAllowPattern).filter((p): p is AllowPattern => p !== undefined);
  const byText = new Map<string, AllowPattern>();
  for (const p of [...derived, ...given]) if (!byText.has(patternText(p))) byText.set(patternText(p), p);
  return [...byText.values()];
}

export function patternText(p: AllowPattern): string {
  return `${p.wildcard ? "*." : ""}${p.host}${p.port === undefined ? "" : `:${p.port}`}`;
}

/** One request's verdict: allowed when any pattern matches its normalised host and port. */
export function egressVerdict(
  patterns: readonly AllowPattern[],
  rawHost: string,
  port: number,
): { allowed: boolean; host: string } {
  // A name that is no host is kept for the record with anything but host characters masked (it is the worker's text).
  const host =
    normalHost(rawHost.replace(/^\[|\]$/g, "")) ??
    rawHost
      .toLowerCase()
      .replace(/[^a-z0-9.:_-]/g, "?")
      .slice(0, 253);
  return { allowed: patterns.some((p) => matchesAllow(p, host, port)), host };
}
