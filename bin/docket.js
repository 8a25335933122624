#!/usr/bin/env node
// Entry point of the `docket` command; the TypeScript sources are compiled to dist/ by `npm ci` (prepare).
// `docket mcp` and `docket door` are their own surfaces (ES modules, imported); `docket worker …` takes a small client
// that speaks only to the worker's door (no SQLite, no engine, no commander unless it must print help or a usage
// error), built into one file (dist/bundle/worker.cjs, scripts/bundle.mjs); every other verb is the full CLI's, built
// into one file too (dist/bundle/cli.cjs).
// CommonJS (bin/package.json) because a command is a cold process whose cost is mostly loading: run synchronously, a
// bundle starts no ES-module loader at all.
"use strict";

const fs = require("node:fs");
const { join } = require("node:path");

const args = process.argv.slice(2);
const own = { mcp: "mcp/main.js", door: "door/main.js" }[args[0]];
const words = args.filter((a) => a !== "--json");
const worker = !own && words[0] === "worker";
const COMPILED = join(__dirname, "..", "dist", "bundle", "compiled");
// node's own compile cache, for what is not a bundle's own code: the surfaces' ES modules, and the packages.
require("node:module").enableCompileCache?.(COMPILED);
const bundle = own ? undefined : runBundle(worker ? "worker" : "cli", worker ? words.slice(0, 2) : words.slice(0, 1));
const entry = own ? import(`../dist/src/surfaces/${own}`) : Promise.resolve(bundle.exports);
entry
  .then(({ main }) => main(own ? args.slice(1) : args))
  .then((code) => {
    process.exitCode = code;
    if (code === 0) bundle?.keepCompiled(); // so a mistyped verb leaves no file behind
  });

/**
 * Runs a bundle as node would require it, with V8's compiled code kept per verb. The CLI's bundle is ~800 kB that V8
 * would parse on every command, and most of a command's functions compile only as they first run, after the module
 * has loaded — which node's own compile cache never keeps. So the code a verb compiled is taken after its run
 * (`createCachedData`) and handed back to V8 on the next run of the same verb (a verdict: ~10 ms of ~120). The cache
 * lives in a folder of Docket's own install, beside the bundles, written where the install is writable (a miss or a
 * read-only install only costs the compile), and is named by the bundle's size and time, so a changed bundle never
 * takes another's code. Never the shared temp dir: whoever can write the cache runs code in the human's commands, and
 * only who can already write the bundle itself may.
 */
function runBundle(name, verb) {
  const file = join(__dirname, "..", "dist", "bundle", `${name}.cjs`);
  if (verb.length === 0 || !verb.every((w) => /^[a-z][a-z-]{0,30}$/.test(w)))
    return { exports: require(file), keepCompiled() {} };
  const { size, mtimeMs } = fs.statSync(file);
  const stem = `${name}.${verb.join("-")}.${size}-${Math.trunc(mtimeMs)}`;
  const { cache, cachedData, union } = keptCode(join(COMPILED, stem));
  // The wrapper node itself puts around a CommonJS module, on the bundle's first line so its positions stay true. The
  // build writes the bundle in ASCII (scripts/bundle.mjs), so latin1 reads it as it is, into a one-byte string.
  const source = `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(file, "latin1")}\n})`;
  const { Script } = require("node:vm");
  const script = new Script(source, { filename: file, cachedData });
  // The bundle's `import()`s come here (see scripts/bundle.mjs): its relative ones name files beside it.
  const importModule = (spec) =>
    import(spec.startsWith(".") ? require("node:url").pathToFileURL(join(file, "..", spec)).href : spec);
  const bundleModule = { exports: {}, importModule };
  const bundleRequire = require("node:module").createRequire(file);
  script.runInThisContext()(bundleModule.exports, bundleRequire, bundleModule, file, join(file, ".."));
  return {
    exports: bundleModule.exports,
    keepCompiled() {
      const taken = cachedData && !script.cachedDataRejected;
      if (taken && cache === union) return;
      const target = taken ? union : cache; // a refused file is replaced where it is
      const temp = `${target}.${process.pid}.tmp`;
      let fd;
      try {
        fs.mkdirSync(COMPILED, { recursive: true });
        fd = fs.openSync(temp, "wx", 0o644); // before the data is made (~6 ms): a read-only install stops here
      } catch {
        return; // the next run compiles again
      }
      try {
        try {
          fs.writeFileSync(fd, script.createCachedData());
        } finally {
          fs.closeSync(fd);
        }
        fs.renameSync(temp, target); // whole old or whole new bytes for a command reading it at the same moment
        if (target !== cache) fs.rmSync(cache, { force: true }); // the union replaces the first
      } catch {
        fs.rmSync(temp, { force: true }); // a full disk, say: nothing half-written is left
      }
    },
  };
}

/**
 * A verb's kept code is written twice: after its first success, then after the next, which adds what that one
 * compiled (V8 keeps every function compiled so far, the ones it was handed included) — a first run over an empty
 * queue, say, is not all the verb ever runs. The second replaces the first.
 */
function keptCode(stem) {
  const union = `${stem}.2.v8`;
  const first = `${stem}.1.v8`;
  for (const cache of [union, first]) {
    try {
      return { cache, cachedData: fs.readFileSync(cache), union };
    } catch {
      // not kept yet
    }
  }
  return { cache: first, cachedData: undefined, union };
}
