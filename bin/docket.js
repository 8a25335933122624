#!/usr/bin/env node
// Entry point of the `docket` command; the TypeScript sources are compiled to dist/ by `npm ci` (prepare).
// `docket mcp` and `docket door` are their own surfaces (ES modules, imported); `docket worker …` takes a small client
// that speaks only to the worker's door (no SQLite, no engine, no commander unless it must print help or a usage
// error), built into one file (dist/bundle/worker.cjs, scripts/bundle.mjs); every other verb is the full CLI's, built
// into one file too (dist/bundle/cli.cjs).
// CommonJS (bin/package.json) because a command is a cold process whose cost is mostly loading: required
// synchronously, a bundle starts no ES-module loader at all.
"use strict";

// Node's compile cache keeps the code V8 compiled while loading (the bundles, the packages, the ES-module surfaces), in
// a folder of Docket's own install, written where the install is writable. Never the shared temp dir: whoever can
// write the cache runs code in the human's commands, and only who can already write the bundles themselves may.
require("node:module").enableCompileCache?.(require("node:path").join(__dirname, "..", "dist", "bundle", "compiled"));

const args = process.argv.slice(2);
const first = args.find((a) => a !== "--json");
// No prototype: `docket constructor` is an unknown verb, not a surface.
const surface = { __proto__: null, mcp: "mcp/main.js", door: "door/main.js" }[args[0]];
if (first === "--version" || first === "-V") {
  // What the CLI prints for it (its VERSION is package.json's), without loading the CLI: one write to fd 1.
  try {
    require("node:fs").writeSync(1, `${require("../package.json").version}\n`);
  } catch (error) {
    if (error.code !== "EPIPE") throw error; // a reader that left early
  }
} else {
  // A verb of the CLI runs with the code V8 compiled on its last runs (bin/kept-code.js); a worker's call is small.
  const file = require("node:path").join(__dirname, "..", "dist", "bundle", first === "worker" ? "worker" : "cli");
  const kept = () => require("./kept-code.js").requireKept(`${file}.cjs`, first);
  const bundle = surface ? undefined : first === "worker" ? { exports: require(`${file}.cjs`), keep() {} } : kept();
  (surface ? import(`../dist/src/surfaces/${surface}`) : Promise.resolve(bundle.exports))
    .then(({ main }) => main(surface ? args.slice(1) : args))
    .then((code) => {
      process.exitCode = code;
      if (code === 0) bundle?.keep(); // so a mistyped verb leaves no file behind
    });
}
