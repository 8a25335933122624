// Model prices from pi-ai's model registry (USD per million tokens), looked up by the provider and model an agent named.
// A model the registry does not know has no price: its cost is unknown, never estimated.

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Prices } from "../domain/workers/spend.js";
import { installedPackage } from "./package-dir.js";
import { lazyModule } from "./require-esm.js";

// Only the registry's own module (pi-ai's models.js, beside its entry point), not the package's index, which loads
// every provider SDK: that was ~800 modules on every `docket ls`. pi-ai is pinned to one version, and spend tests read it.
// Its 550 kB table is loaded on the first price asked (`require` of an ES module), not by every command that imports
// this: a verdict over workers that report no usage never parses it.
type Registry = Pick<typeof import("@mariozechner/pi-ai"), "getModels" | "getProviders">;

/** pi-ai's models.js, beside the entry point its package.json names. */
function modelsFile(): string {
  const pkg = installedPackage("@mariozechner/pi-ai");
  if (pkg === undefined) throw new Error("cannot find @mariozechner/pi-ai's model registry (reinstall with npm ci)");
  const main = new URL(String(pkg.manifest.main ?? "./dist/index.js"), pathToFileURL(join(pkg.dir, "package.json")));
  return new URL("./models.js", main).href;
}

let load: (() => Registry) | undefined;
const registryModule = (): Registry => (load ??= lazyModule<Registry>(import.meta.url, modelsFile()))();

let index: Map<string, Prices> | undefined;

function registry(): Map<string, Prices> {
  if (index) return index;
  index = new Map();
  const { getModels, getProviders } = registryModule();
  for (const provider of getProviders()) {
    for (const m of getModels(provider))
      index.set(`${provider}/${m.id}`, {
        input: m.cost.input,
        output: m.cost.output,
        cacheRead: m.cost.cacheRead,
        cacheWrite: m.cost.cacheWrite,
      });
  }
  return index;
}

/** The registry's prices for `provider/model`, also trying the model without a date suffix (`claude-sonnet-4-5-20250929`). */
export function modelPrices(provider: string, model: string): Prices | undefined {
  const r = registry();
  return r.get(`${provider}/${model}`) ?? r.get(`${provider}/${model.replace(/-\d{8}$/, "")}`);
}
