// Builds two one-file bundles after tsc, since a cold process's cost is mostly module loading:
// - dist/bundle/worker.cjs, the worker's client behind `docket worker …` (one module of ours instead of a dozen);
// - dist/bundle/cli.cjs, every other verb of the `docket` CLI (one module instead of ~150 ES modules: node's ES-module
//   loader cost a verdict ~120 ms).
// CommonJS on purpose: bin/docket.js (CommonJS too) requires them synchronously, so a call starts no ES-module loader,
// and node builtins come through require, never ES-module facades (which for node:fs load fs/promises). Packages stay
// outside, and so do the modules a worker's call loads only when it must: commander's full program (help and usage
// errors) and the door's restart (node:child_process is loaded then only). The compiled modules inside each bundle are
// listed beside it, for the architecture test: a bundle holds only its entry's own import graph.
//
// Each module keeps its own place: its `import.meta.url` is the URL of its compiled file in dist/src (where it finds
// its neighbours: the web assets, bin/, pi's extension), and a module it loads at run time by a relative path (a lazy
// seam of substrate/require-esm.ts, or `createRequire(import.meta.url)` of a neighbour) becomes the bundle's own
// require, so it loads the bundled module, never a second copy.
import { build } from "esbuild";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist", "bundle");

/**
 * Each bundle: its compiled entry, the modules it imports that stay separate files (loaded only when needed), and the
 * packages built into it. The CLI holds commander, which every verb loads, and better-sqlite3's JavaScript (its addon
 * stays a file of its package, src/ledger/core/open.ts names it): inside, they cost no module lookups; every other
 * package is required from node_modules.
 */
const BUNDLES = [
  {
    name: "worker",
    entry: "dist/src/surfaces/cli/worker-fast.js",
    outside: ["dist/src/surfaces/cli/worker-main.js", "dist/src/substrate/door-revive.js"],
    within: [],
  },
  {
    name: "cli",
    entry: "dist/src/surfaces/cli/main.js",
    outside: [],
    within: ["commander", "better-sqlite3"],
    lazy: [lazyChildProcess()],
  },
];

/** Leaves node builtins and every package but `within` out of the bundle, required from node_modules at run time. */
const packagesOutside = (within) => ({
  name: "packages-outside",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path
        .split("/")
        .slice(0, args.path.startsWith("@") ? 2 : 1)
        .join("/");
      return within.includes(name) ? undefined : { path: args.path, external: true };
    });
  },
});

/**
 * node:child_process as an object whose members load it on first use: most CLI commands start no process (a verdict
 * over a queue whose facts are cached, `ls`), and loading it costs a few ms (net, dgram and the stream family).
 * Commander and Docket's own modules only read its members at call time, so each reaches the real one.
 */
function lazyChildProcess() {
  return {
    name: "lazy-child-process",
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, () => ({ path: "child_process", namespace: "lazy-builtin" }));
      b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, () => {
        const names = Object.keys(createRequire(import.meta.url)("node:child_process"));
        const members = names.map(
          (n) => `${JSON.stringify(n)}: { enumerable: true, get: () => real()[${JSON.stringify(n)}] }`,
        );
        return {
          contents: `let m; const real = () => (m ??= process.getBuiltinModule("node:child_process"));\nObject.defineProperties(exports, { ${members.join(", ")} });\n`,
          loader: "js",
        };
      });
    },
  };
}

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

const SEAM = /\blazyModule\(\s*import\.meta\.url,\s*("\.\.?\/[^"]+")\s*\)/g;
const NEIGHBOUR = /\bcreateRequire\(\s*import\.meta\.url\s*\)\(\s*("\.\.?\/[^"]+")\s*\)/g;

/** Keeps each compiled module's own place inside a bundle (see the header). */
const ownPlace = {
  name: "own-place",
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/].*\.js$/ }, (args) => {
      const text = readFileSync(args.path, "utf8")
        .replace(SEAM, (_, spec) => `(() => require(${spec}))`)
        .replace(NEIGHBOUR, (_, spec) => `require(${spec})`);
      const own = JSON.stringify(relative(join(ROOT, "dist"), args.path).split(sep).join("/"));
      return { contents: text.replaceAll("import.meta.url", `__ownUrl(${own})`), loader: "js" };
    });
  },
};

// A module's URL from its path under dist/: the bundle itself is in dist/bundle.
const OWN_URL =
  'const __ownUrl = (p) => require("node:url").pathToFileURL(require("node:path").join(__dirname, "..", p)).href;';

/**
 * The bundle with every non-ASCII code unit written as a `\uXXXX` escape, which means the same character in a string,
 * a template or a regular expression (esbuild leaves a few in regular expressions). Node then holds the source it
 * reads as a one-byte string (one character of another kind makes the whole ~900 kB two-byte): half the memory, and
 * a quicker load.
 */
function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const { name, entry, outside, within, lazy = [] } of BUNDLES) {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    outfile: join(OUT, `${name}.cjs`),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    // ES-module sources are strict (the banner says so first); no tsconfig.json esbuild might find changes the output.
    tsconfigRaw: {},
    banner: { js: `"use strict";${OWN_URL}` },
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
    minifyWhitespace: true,
    minifySyntax: true,
    plugins: [...lazy, keepOutside(outside), packagesOutside(within), ownPlace],
    // A module's `import.meta` left over (`import.meta.resolve`, say) has no meaning in a bundle: refuse it.
    logOverride: { "empty-import-meta": "error" },
  });
  const output = join(OUT, `${name}.cjs`);
  const text = readFileSync(output, "utf8");
  // A seam the rewrite did not match would load a second, unbundled copy of its module: refuse that too.
  const stray = /\blazyModule\)?\(\s*__ownUrl\([^)]*\),\s*"\.\.?\//.exec(text);
  if (stray)
    throw new Error(`${name} bundle: a lazy seam not written as lazyModule(import.meta.url, "<literal>"): ${stray[0]}`);
  // bin/kept-code.js runs the CLI's bundle in a vm.Script, whose import() node answers with an experimental-feature
  // warning on stderr: the CLI loads by require (a builtin by process.getBuiltinModule).
  if (name === "cli" && /\bimport\(/.test(text)) throw new Error("cli bundle: an import() left in it");
  writeFileSync(output, asciiOnly(text));
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => !p.startsWith("lazy-builtin:")) // a lazy builtin's stand-in is no module of ours
    .map((p) => relative(ROOT, resolve(ROOT, p)))
    .sort();
  const own = inputs.filter((p) => !p.startsWith(`node_modules${sep}`));
  const packages = [...new Set(inputs.filter((p) => !own.includes(p)).map((p) => p.split(sep)[1]))].sort();
  writeFileSync(
    join(OUT, `${name}.inputs.json`),
    `${JSON.stringify({ entry, outside, inputs: own, packages }, null, 2)}\n`,
  );
}
