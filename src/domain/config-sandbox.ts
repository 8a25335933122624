// The sandbox section and DOCKET_SANDBOX: how workers are contained. A project may only tighten containment
// (required over auto over off, no network over the machine's), never loosen it (docs/containment.md).

import { SANDBOX_MODES, type DocketConfig, type SandboxMode } from "./config-shape.js";
import { isObj, strList } from "./config-sections.js";

const SANDBOX_RANK: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

export function applySandboxMode(config: DocketConfig, mode: string, warnings: string[]): void {
  if ((SANDBOX_MODES as readonly string[]).includes(mode)) config.sandbox.mode = mode as SandboxMode;
  else warnings.push(`DOCKET_SANDBOX must be one of ${SANDBOX_MODES.join(", ")}; ignored`);
}

/** `sandbox: "<mode>"` or `sandbox: {mode, network, readOnlyPaths}`; a project may only tighten. */
export function applySandbox(
  config: DocketConfig,
  raw: unknown,
  source: string,
  warnings: string[],
  trusted: boolean,
): void {
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
  if (section.network !== undefined) {
    if (section.network !== "default" && section.network !== "none") {
      warnings.push(`${source} config sandbox.network must be "default" or "none"; ignored`);
    } else if (trusted || section.network === "none") config.sandbox.network = section.network;
    else {
      const loosens = `${source} config sandbox.network "default" would give workers the network`;
      warnings.push(`${loosens}; only your user config can`);
    }
  }
  if (section.readOnlyPaths !== undefined) {
    const list = strList(section.readOnlyPaths);
    if (!trusted) {
      warnings.push(`${source} config sandbox.readOnlyPaths ignored: only your user config may show paths to workers`);
    } else if (list?.every((p) => p.startsWith("/"))) config.sandbox.readOnlyPaths = list;
    else warnings.push(`${source} config sandbox.readOnlyPaths must be a list of absolute paths; ignored`);
  }
}
