// Builds the worker's one-file client after tsc: `docket worker …` loads dist/bundle/worker.cjs, one module of ours
// instead of a dozen, since a command worker's call is a cold process whose cost is mostly module loading.
// CommonJS on purpose: bin/docket.js (CommonJS too) requires it synchronously, so a worker's call starts no ES-module
// loader, and its node builtins come through require, never ES-module facades (which for node:fs load fs/promises).
// Packages stay outside (a client loads none), and so do the modules a call loads only when it must: commander's full
// program (help and usage errors) and the door's restart (node:child_process is loaded then only). The compiled modules
// inside each bundle are listed beside it, for the architecture test: a bundle holds only its entry's own import graph.
import { build } from "esbuild";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist", "bundle");

/** Each bundle: its compiled entry, and the modules it imports that stay separate files (loaded only when needed). */
const BUNDLES = [
  {
    name: "worker",
    entry: "dist/src/surfaces/cli/worker-fast.js",
    outside: ["dist/src/surfaces/cli/worker-main.js", "dist/src/substrate/door-revive.js"],
  },
];

/** Leaves `outside` modules out of the bundle, imported by their path from the bundle's folder. */
const keepOutside = (outside) => ({
  name: "keep-outside",
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (!outside.includes(relative(ROOT, target))) return undefined;
      const path = relative(OUT, target);
      return { path: path.startsWith(".") ? path : `./${path}`, external: true };
    });
  },
});

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const { name, entry, outside } of BUNDLES) {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    outfile: join(OUT, `${name}.cjs`),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    packages: "external",
    // ES-module sources are strict (the banner says so first); no tsconfig.json esbuild might find changes the output.
    tsconfigRaw: {},
    // The sources' `import.meta.url` (a module finding its neighbours) is this file's own URL.
    define: { "import.meta.url": "__bundleUrl" },
    banner: { js: '"use strict";const __bundleUrl = require("node:url").pathToFileURL(__filename).href;' },
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [keepOutside(outside)],
  });
  const inputs = Object.keys(result.metafile.inputs)
    .map((p) => relative(ROOT, resolve(ROOT, p)))
    .sort();
  writeFileSync(join(OUT, `${name}.inputs.json`), `${JSON.stringify({ entry, outside, inputs }, null, 2)}\n`);
}
