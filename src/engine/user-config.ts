// The human's own settings (`$DOCKET_HOME/config.json`) without opening the ledger or asking git for the project:
// what a surface needs before any command runs, such as the key pi binds to the fleet dashboard.

import { resolveConfig, type ConfigResult } from "../domain/config.js";
import { homeLayout, resolveHomeDir } from "../files/home.js";
import { readJsonFile } from "../files/json-file.js";

export function userConfig(env: NodeJS.ProcessEnv): ConfigResult {
  const read = readJsonFile(homeLayout(resolveHomeDir(env)).config);
  const result = resolveConfig(read.ok === true ? read.value : undefined, undefined, env);
  if (read.ok === false) result.warnings.unshift(`${read.reason}; ignored`);
  return result;
}
