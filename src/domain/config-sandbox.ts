// The sandbox section and DOCKET_SANDBOX: how workers are contained. A project may only tighten containment
// (required over auto over off; none over allow over open for the network), never loosen it (docs/containment.md).

import { SANDBOX_MODES, type DocketConfig, type SandboxMode } from "./config-shape.js";
import { isObj, strList, type SectionApplier } from "./config-sections.js";
import { badAllowPatterns, isNetworkMode, NETWORK_MODES, narrows } from "./network-policy.js";

const SANDBOX_RANK: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

export function applySandboxMode(config: DocketConfig, mode: string, warnings: string[]): void {
  if ((SANDBOX_MODES as readonly string[]).includes(mode)) config.sandbox.mode = mode as SandboxMode;
  else warnings.push(`DOCKET_SANDBOX must be one of ${SANDBOX_MODES.join(", ")}; ignored`);
}

/** `sandbox: "<mode>"` or `sandbox: {mode, network, readOnlyPaths}`; a project may only tighten. */
export const applySandbox: SectionApplier = (config, raw, source, warnings, trusted) => {
  const section = typeof raw === "string" ? { mode: raw } : raw;
  if (!isObj(section)) {
    warnings.push(`${source} config sandbox must be "auto", "required", "off" or an object; ignored`);
    return;
  }
  if (section.mode !== undefined) {
    const mode = section.mode;
    if (typeof mode !== "string" || !(SANDBOX_MODES as readonly string[]).includes(mode)) {
      warnings.push(`${source} config sandbox.mode must be one of ${SANDBOX_MODES.join(", ")}; ignored`);
    } else if (trusted || SANDBOX_RANK[mode as SandboxMode] >= SANDBOX_RANK[config.sandbox.mode]) {
      config.sandbox.mode = mode as SandboxMode;
    } else warnings.push(`${source} config sandbox "${mode}" would loosen containment; only your user config can`);
  }
  if (section.network !== undefined) applyNetwork(config, section.network, source, warnings, trusted);
  if (section.allow !== undefined)
    applyAllow(config, section.allow, `${source} config sandbox.allow`, warnings, trusted);
  if (section.readOnlyPaths !== undefined) {
    const list = strList(section.readOnlyPaths);
    if (!trusted) {
      warnings.push(`${source} config sandbox.readOnlyPaths ignored: only your user config may show paths to workers`);
    } else if (list?.every((p) => p.startsWith("/"))) config.sandbox.readOnlyPaths = list;
    else warnings.push(`${source} config sandbox.readOnlyPaths must be a list of absolute paths; ignored`);
  }
};

/** `sandbox.network`: a mode, or `{mode, allow}`; "default" is the old name of "open". A project may only narrow. */
const applyNetwork: SectionApplier = (config, raw, source, warnings, trusted) => {
  const section = isObj(raw) ? raw : { mode: raw };
  const at = `${source} config sandbox.network`;
  if (section.mode !== undefined) {
    const mode = section.mode === "default" ? "open" : section.mode;
    if (!isNetworkMode(mode)) warnings.push(`${at} must be one of ${NETWORK_MODES.join(", ")}; ignored`);
    else if (trusted || narrows(config.sandbox.network, mode)) config.sandbox.network = mode;
    else warnings.push(`${at} "${mode}" would widen the workers' network; only your user config can`);
  }
  if (section.allow !== undefined) applyAllow(config, section.allow, `${at}.allow`, warnings, trusted);
};

/** `allow`: host[:port] patterns a contained worker may reach; the user's alone (a project cannot add hosts). */
function applyAllow(config: DocketConfig, raw: unknown, at: string, warnings: string[], trusted: boolean): void {
  const list = strList(raw);
  if (!trusted) warnings.push(`${at} ignored: only your user config may let workers reach more hosts`);
  else if (list === undefined) warnings.push(`${at} must be a list of "host[:port]" patterns; ignored`);
  else {
    const bad = badAllowPatterns(list);
    if (bad.length > 0)
      warnings.push(
        `${at}: ${bad.map((b) => JSON.stringify(b)).join(", ")} is not host, host:port or *.domain[:port]; ignored`,
      );
    else config.sandbox.allow = list;
  }
}

/**
 * DOCKET_NETWORK (a mode) and DOCKET_NETWORK_ALLOW (comma-separated patterns, added to the user's): the human's own
 * environment for one command, e.g. one spawn that may reach one more host. A project config still only narrows.
 */
export function applyNetworkEnv(
  config: DocketConfig,
  env: { DOCKET_NETWORK?: string | undefined; DOCKET_NETWORK_ALLOW?: string | undefined },
  warnings: string[],
): void {
  const mode = env.DOCKET_NETWORK;
  if (mode) {
    if (isNetworkMode(mode)) config.sandbox.network = mode;
    else warnings.push(`DOCKET_NETWORK must be one of ${NETWORK_MODES.join(", ")}; ignored`);
  }
  const allow =
    env.DOCKET_NETWORK_ALLOW?.split(",")
      .map((p) => p.trim())
      .filter(Boolean) ?? [];
  if (allow.length === 0) return;
  const bad = badAllowPatterns(allow);
  if (bad.length > 0)
    warnings.push(
      `DOCKET_NETWORK_ALLOW: ${bad.map((b) => JSON.stringify(b)).join(", ")} is not host, host:port or *.domain[:port]; ignored`,
    );
  else config.sandbox.allow = [...new Set([...config.sandbox.allow, ...allow])];
}
