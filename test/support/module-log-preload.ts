// Preloaded into a docket child process (`node --import`, see module-log.ts): logs every ES module and CommonJS file
// it loads to $DOCKET_MODULE_LOG, and makes the bare specifiers in $DOCKET_MODULE_BLOCK (comma-separated) unresolvable.

import Module, { register } from "node:module";
import { appendFileSync } from "node:fs";

const log = process.env.DOCKET_MODULE_LOG ?? "";
const block = (process.env.DOCKET_MODULE_BLOCK ?? "").split(",").filter((s) => s !== "");
register(new URL("./module-log-hooks.js", import.meta.url), { data: { log, block } });
if (log) {
  const proto = (Module as unknown as { prototype: { _compile: (content: string, filename: string) => unknown } })
    .prototype;
  const compile = proto._compile;
  proto._compile = function (this: unknown, content: string, filename: string) {
    appendFileSync(log, `cjs ${filename}\n`);
    return compile.call(this, content, filename);
  };
  // A native addon is a file node loads too (the CLI's bundle holds better-sqlite3's JavaScript, not its addon).
  const dlopen = process.dlopen;
  process.dlopen = (module: { exports: unknown }, filename: string, ...rest: number[]) => {
    appendFileSync(log, `cjs ${filename}\n`);
    return dlopen(module, filename, ...rest);
  };
}
