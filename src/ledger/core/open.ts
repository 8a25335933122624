// Opens the ledger file: WAL, busy_timeout, foreign keys, then applies pending numbered migrations.
// One connection per process; several processes share the file and serialise writes with BEGIN IMMEDIATE.

import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import { DocketError } from "../../domain/errors.js";
import { SUPPORTED_NODE, builtForAbi, isSupportedNode, nodeOfAbi } from "../../domain/node-abi.js";
import { migrate } from "./migrate.js";

export type Db = Database.Database;

export interface OpenLedgerOptions {
  /** Milliseconds a writer waits for the lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  readonly?: boolean;
}

export function openLedger(path: string, options: OpenLedgerOptions = {}): Db {
  loadNativeModule();
  const db = new Database(path, { readonly: options.readonly ?? false, ...nativeBinding() });
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 10_000}`);
  if (!options.readonly) {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
  }
  db.pragma("foreign_keys = ON");
  if (!options.readonly) migrate(db);
  return db;
}

let nativeModuleLoaded = false;
// better-sqlite3 takes the loaded addon as well as its path (lib/database.js); its types name only the path.
let addon: { nativeBinding?: string } | undefined;

/**
 * better-sqlite3's addon, handed to every open. Where its install script builds it, by its path; anywhere else, as the
 * `bindings` package finds it from better-sqlite3's own folder — which better-sqlite3 would otherwise ask of `bindings`
 * from the file calling it, and inside the CLI's bundle (scripts/bundle.mjs) that file is not better-sqlite3's. The
 * path also spares each process that search (a dozen paths after reading a stack trace, ~1 ms). Throws what
 * `bindings` throws when the addon was never built.
 */
export function nativeBinding(): { nativeBinding?: string } {
  if (addon) return addon;
  const manifest = createRequire(import.meta.url).resolve("better-sqlite3/package.json");
  const file = join(dirname(manifest), "build", "Release", "better_sqlite3.node");
  const found = existsSync(file)
    ? file
    : (createRequire(manifest)("bindings") as (o: object) => object)({
        bindings: "better_sqlite3.node",
        module_root: dirname(manifest),
      });
  addon = { nativeBinding: found as string };
  return addon;
}

/** better-sqlite3 loads its native addon on the first open; a failure there is an install problem, said as one. */
export function loadNativeModule(): void {
  if (nativeModuleLoaded) return;
  try {
    new Database(":memory:", nativeBinding()).close();
  } catch (cause) {
    throw nativeModuleMissing(cause);
  }
  nativeModuleLoaded = true;
}

function nativeModuleMissing(cause: unknown): DocketError {
  const dir = dirname(dirname(dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json"))));
  const installedPackage = basename(dirname(dir)) === "node_modules";
  const builtFor = builtForAbi((cause as Error).message ?? "");
  if (builtFor !== undefined) return builtForAnotherNode(builtFor, dir, cause);
  const reason =
    (cause as { code?: string }).code === "ERR_DLOPEN_FAILED"
      ? "does not load in this Node.js (built for another version?)"
      : "was never built (npm skipped its install script)";
  return new DocketError("refusal", "native-module-missing", `better-sqlite3's native module ${reason}`, {
    hint: installedPackage
      ? `run \`npm rebuild better-sqlite3\` in ${dir}, or reinstall with \`npm install -g <docket> --allow-scripts=better-sqlite3\``
      : `run \`npm rebuild better-sqlite3\` in ${dir}; npm 12 runs it only with "allowScripts": {"better-sqlite3": true} in package.json`,
    cause,
  });
}

/**
 * The addon was built for another Node's ABI: both are named, and the rebuild that uses this Node's own headers. npm 12
 * takes no `--nodedir` flag, and a `nodedir` left in ~/.npmrc builds against that Node's headers instead: the
 * environment variable wins over it (node-gyp reads npm_config_nodedir).
 */
function builtForAnotherNode(builtFor: number, dir: string, cause: unknown): DocketError {
  const running = Number(process.versions.modules);
  const prefix = dirname(dirname(realpathSync(process.execPath)));
  return new DocketError(
    "refusal",
    "native-module-abi",
    `better-sqlite3's native module was built for ${nodeOfAbi(builtFor)} (NODE_MODULE_VERSION ${builtFor}), but this is Node ${process.version} (NODE_MODULE_VERSION ${running}, ${process.execPath})`,
    {
      hint: `rebuild it against this Node's own headers: \`cd ${dir} && npm_config_nodedir=${prefix} npm rebuild better-sqlite3\`${isSupportedNode(process.version) ? "" : `; Docket supports Node ${SUPPORTED_NODE}, so run it under one of those instead`}`,
      cause,
    },
  );
}

/** SQLite's data_version: changes whenever another connection commits. Costs no I/O beyond the page cache. */
export function dataVersion(db: Db): number {
  return Number(db.pragma("data_version", { simple: true }));
}
