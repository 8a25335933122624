#!/usr/bin/env node
// Entry point of the `docket` command; the TypeScript sources are compiled to dist/ by `npm ci` (prepare).
// `docket mcp` and `docket door` are their own surfaces (ES modules, imported); `docket worker …` takes a small client
// that speaks only to the worker's door (no SQLite, no engine, no commander unless it must print help or a usage
// error), built into one file (dist/bundle/worker.cjs, scripts/bundle.mjs); every other verb is the full CLI's, built
// into one file too (dist/bundle/cli.cjs).
// CommonJS (bin/package.json) because a command is a cold process whose cost is mostly loading: required
// synchronously, a bundle starts no ES-module loader at all.
"use strict";

const args = process.argv.slice(2);
const own = { mcp: "mcp/main.js", door: "door/main.js" }[args[0]];
const worker = !own && args.find((a) => a !== "--json") === "worker";
if (!own) cacheCompiledCode();
const entry = own
  ? import(`../dist/src/surfaces/${own}`)
  : Promise.resolve(require(worker ? "../dist/bundle/worker.cjs" : "../dist/bundle/cli.cjs"));
entry
  .then(({ main }) => main(own ? args.slice(1) : args))
  .then((code) => {
    process.exitCode = code;
  });

/**
 * The CLI's bundle is ~750 kB that V8 would parse on every command, and a worker's call compiles its bundle's functions
 * one by one as they first run (~1 ms of a call): node (22.1 and later) keeps their compiled code in a folder of
 * Docket's own install, beside the bundles, written on the first run where the install is writable (a miss or a
 * read-only install only costs the compile). Never the shared temp dir node defaults to: whoever can write the cache
 * runs code in the human's commands, and only who can already write the bundle itself may.
 */
function cacheCompiledCode() {
  require("node:module").enableCompileCache?.(require("node:path").join(__dirname, "..", "dist", "bundle", "compiled"));
}
