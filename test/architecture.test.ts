// The house rules, enforced: imports point down only; domain is pure; the engine touches no file, runs no SQL,
// starts no process and reaches git, tmux and the agents only through its context's ports; it reads camelCase rows only,
// and neither it nor the ledger parses JSON unchecked; sibling surfaces never import each other (surfaces/shared); worker
// text reaches a terminal only through the one output filter; every worker call is fenced by construction; one ledger
// module owns the questions table; which agent a worker runs is asked of its traits, not its name; where a worker runs
// is asked of its place (engine/places/), not branched on.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, dirname } from "node:path";

const SRC = resolve(dirname(new URL(import.meta.url).pathname), "../src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith(".js") ? [p] : [];
  });
}

const layerOf = (path: string): string => relative(SRC, path).split("/")[0]!;
/** `surfaces/pi/parent/role.js` → `pi`; outside surfaces, undefined. */
const surfaceOf = (path: string): string | undefined => {
  const [layer, surface] = relative(SRC, path).split("/");
  return layer === "surfaces" ? surface : undefined;
};

const ALLOWED: Record<string, string[]> = {
  domain: ["domain"],
  ledger: ["domain", "ledger"],
  files: ["domain", "files"],
  substrate: ["domain", "substrate"],
  engine: ["domain", "ledger", "files", "substrate", "engine"],
  surfaces: ["domain", "engine", "surfaces"],
};

/**
 * The modules below the engine a worker's client loads, each through one surface module: the door's restart (the one
 * surface module that starts a process, as tmux's clients restart its server) and the reader of untrusted input.
 */
const WORKER_CLIENT_BELOW: Record<string, string> = {
  "surfaces/shared/door-client.js": "substrate/door-revive.js",
  "surfaces/shared/door-input.js": "files/input-file.js",
};
const belowForClients = new Set(Object.values(WORKER_CLIENT_BELOW));

test("every import points down the house: domain ← ledger/files/substrate ← engine ← surfaces, siblings only through shared", () => {
  const problems: string[] = [];
  for (const file of files(SRC)) {
    const layer = layerOf(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    )) {
      const spec = m[1] ?? m[2]!;
      if (layer === "domain" && !spec.startsWith("."))
        problems.push(`${relative(SRC, file)} imports ${spec} (domain is pure)`);
      if (layer === "surfaces" && /^(better-sqlite3|node:child_process)$/.test(spec))
        problems.push(`${relative(SRC, file)} imports ${spec}`);
      if (!spec.startsWith(".")) continue;
      const target = layerOf(resolve(dirname(file), spec));
      // Named exceptions: a worker's client loads no engine, so it restarts a dead door through this one substrate
      // module, and reads its input through the one reader of untrusted input every command uses.
      const named = WORKER_CLIENT_BELOW[relative(SRC, file)] === relative(SRC, resolve(dirname(file), spec));
      if (!ALLOWED[layer]?.includes(target) && !named)
        problems.push(`${relative(SRC, file)} (${layer}) imports ${spec} (${target})`);
      const from = surfaceOf(file);
      const to = surfaceOf(resolve(dirname(file), spec));
      if (from !== undefined && to !== undefined && from !== to && to !== "shared")
        problems.push(`${relative(SRC, file)} (${from}) imports ${spec} (surface ${to})`);
    }
  }
  assert.deepEqual(problems, []);
});

/** What only files/, ledger/ and substrate/ may do: the engine composes them. */
const ENGINE_FORBIDDEN_IMPORTS = /^(node:fs|node:fs\/promises|node:child_process|better-sqlite3)$/;
const ENGINE_FORBIDDEN_CODE: [RegExp, string][] = [
  [/\.(?:prepare|pragma|exec|transaction)\(\s*["'`]/, "runs SQL"],
  [/["'`]\s*(?:SELECT|INSERT|UPDATE|DELETE|PRAGMA|CREATE|BEGIN)\b/, "holds SQL text"],
  [/\bprocess\.kill\(/, "signals a process"],
];

test("the engine touches no file, runs no SQL and starts no process: files/, ledger/ and substrate/ do", () => {
  const problems: string[] = [];
  for (const file of files(join(SRC, "engine"))) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    )) {
      const spec = m[1] ?? m[2]!;
      if (ENGINE_FORBIDDEN_IMPORTS.test(spec)) problems.push(`${relative(SRC, file)} imports ${spec}`);
      if (spec.startsWith(".") && relative(SRC, resolve(dirname(file), spec)).startsWith("ledger/core/statements"))
        problems.push(`${relative(SRC, file)} prepares its own statements`);
    }
    for (const [pattern, what] of ENGINE_FORBIDDEN_CODE)
      if (pattern.test(text)) problems.push(`${relative(SRC, file)} ${what}`);
  }
  assert.deepEqual(problems, []);
});

test("the domain is pure: no clock, no randomness, no process, no environment", () => {
  const impure = files(join(SRC, "domain")).filter((file) =>
    /\b(?:Date\.now|Math\.random|process\.[a-z]|new Date\(\))/.test(
      readFileSync(file, "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ""),
    ),
  );
  assert.deepEqual(
    impure.map((f) => relative(SRC, f)),
    [],
  );
});

/** A file formatted at 120 columns that is short in lines can still be long in bytes: both ceilings hold. */
const MAX_LINES = 500;
const MAX_BYTES = 24 * 1024;

test("no source file is over 500 lines or 24 KB", () => {
  const big = files(SRC).flatMap((f) => {
    const text = readFileSync(f.replace("/dist/src/", "/src/").replace(/\.js$/, ".ts"), "utf8");
    const lines = text.split("\n").length;
    const bytes = Buffer.byteLength(text);
    return lines > MAX_LINES || bytes > MAX_BYTES ? [`${relative(SRC, f)}: ${lines} lines, ${bytes} bytes`] : [];
  });
  assert.deepEqual(big, []);
});

test("the engine sets no worker state inline: every transition is a patch from domain/workers/lifecycle.ts", () => {
  const inline = files(join(SRC, "engine")).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/updateWorker\([^;]*?\bstate:/g)].map(() => relative(SRC, file)),
  );
  assert.deepEqual(inline, []);
});

/** A command replaying its own stored result reads back exactly what it wrote, typed by its caller. */
const REPLAYS_OWN_RESULT = new Set(["ledger/core/runner.ts", "ledger/workers/protocol.ts"]);

test("no unchecked JSON.parse … as T in the engine or the ledger: JSON columns are read through a validator", () => {
  const unchecked = ["engine", "ledger"]
    .flatMap((layer) => files(join(SRC, layer)))
    .map((f) => relative(SRC, f).replace(/\.js$/, ".ts"))
    .filter(
      (f) =>
        !REPLAYS_OWN_RESULT.has(f) &&
        /JSON\.parse\([^;]*?\)\)?\s*as\s+(?!unknown\b)/.test(readFileSync(join(SRC, "..", "..", "src", f), "utf8")),
    );
  assert.deepEqual(unchecked, []);
});

test("the engine runs git, tmux and the agents only through the context's ports (ctx.git, ctx.tmux, ctx.agents), which only open.ts builds", () => {
  const PORT_MAKERS: Record<string, RegExp> = {
    "engine/open.js": /substrate\/(git|agents)\/port\.js$/,
    "engine/demo/demo.js": /substrate\/git\/init\.js$/, // the demo's scratch repository exists before any engine
    "engine/workers/agents.js": /substrate\/agents\/port\.js$/, // `docket kinds` lists the agents on this machine, engine or not
    "engine/doctor/tool-checks.js": /substrate\/agents\/pi\.js$/, // the doctor checks the installed pi itself
  };
  const problems: string[] = [];
  for (const file of files(join(SRC, "engine"))) {
    const name = relative(SRC, file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    )) {
      const spec = m[1] ?? m[2]!;
      if (/substrate\/(git|agents)\//.test(spec) && !PORT_MAKERS[name]?.test(spec))
        problems.push(`${name} imports ${spec}`);
    }
    if (name !== "engine/open.js" && /\bcreateTmux\b/.test(text)) problems.push(`${name} makes its own tmux`);
  }
  assert.deepEqual(problems, []);
});

test("the engine reads no snake_case field: ledger rows reach it as camelCase domain types", () => {
  const snake = files(join(SRC, "engine")).flatMap((file) =>
    [
      ...readFileSync(file, "utf8")
        .replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "")
        .matchAll(/[\]\w)]\.([a-z]+_[a-z_]+)\b/g),
    ].map((m) => `${relative(SRC, file)}: .${m[1]}`),
  );
  assert.deepEqual(snake, []);
});

test("git runs by its absolute path only, and a worker's tree only through substrate/git/worker-git", () => {
  // The human's checkout: its own modules, the human's git with neutralised config. A worker's tree: worker-git alone.
  const RUNS_GIT = new Set([
    "substrate/git/git-binary.js",
    "substrate/git/worker-git.js",
    "substrate/git/promote.js",
    "substrate/git/worktree.js",
    "substrate/git/blob.js",
    "substrate/git/init.js",
    "substrate/project.js",
    "substrate/tool-versions.js",
  ]);
  const PINS_A_WORK_TREE = new Set(["substrate/git/worker-git.js", "substrate/git/worktree.js"]);
  const problems: string[] = [];
  for (const file of files(SRC)) {
    const name = relative(SRC, file);
    const text = readFileSync(file, "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    if (/\b(?:execFileSync|execFile|spawnSync|spawn|execSync|exec)\(\s*["'`]git["'`]/.test(text))
      problems.push(`${name} runs "git" from PATH`);
    if (/\bgitBinary\(/.test(text) && !RUNS_GIT.has(name))
      problems.push(`${name} runs git outside the modules allowed to`);
    if (/GIT_WORK_TREE|--work-tree/.test(text) && !PINS_A_WORK_TREE.has(name))
      problems.push(`${name} names a work tree`);
  }
  // The port's worker-tree operations live in modules that start no process: they reach git through worker-git.
  // Combine's merge too: its bytes come from workers, so it runs in worker-git's scratch git, never the checkout's config.
  for (const name of [
    "substrate/git/live-tree.js",
    "substrate/git/changes.js",
    "substrate/git/patch-check.js",
    "substrate/git/merge.js",
  ]) {
    const text = readFileSync(join(SRC, name), "utf8");
    if (/node:child_process/.test(text)) problems.push(`${name} starts a process itself`);
    if (!/worker-git\.js/.test(text)) problems.push(`${name} does not go through worker-git`);
  }
  const port = readFileSync(join(SRC, "substrate/git/port.js"), "utf8");
  for (const fn of ["liveEqualsFrozen", "liveChangedPaths", "liveChangesExist", "resetWorkspace"]) {
    if (!new RegExp(`import \\{[^}]*\\b${fn}\\b[^}]*\\} from "\\./live-tree\\.js"`).test(port))
      problems.push(`the port's ${fn} does not come from live-tree.js`);
  }
  assert.deepEqual(problems, []);
});

/** Every module a worker's own process loads, following runtime imports (the compiled JS has no `import type`). */
/** A module's run-time imports: static and dynamic imports, and the lazy seams (substrate/require-esm.ts). */
const RUNTIME_IMPORT =
  /(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|lazyModule\(\s*import\.meta\.url,\s*["']([^"']+)["']\s*\)|createRequire\(import\.meta\.url\)\(\s*["']([^"']+)["']\s*\)/g;

function runtimeGraph(entry: string): string[] {
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    if (!existsSync(file)) return; // a quoted import inside a string (the demo's scripted files), not a module
    seen.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(RUNTIME_IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? m[4]!;
      if (spec.startsWith(".")) walk(resolve(dirname(file), spec));
      else seen.add(spec);
    }
  };
  walk(join(SRC, entry));
  return [...seen].map((f) => (f.startsWith("/") ? relative(SRC, f) : f));
}

test("a worker's clients (docket worker, docket mcp, the pi worker role) load no SQLite, no engine, no ledger, files or substrate: only the door does", () => {
  for (const entry of [
    "surfaces/cli/worker-fast.js",
    "surfaces/cli/worker-main.js",
    "surfaces/mcp/main.js",
    "surfaces/pi/worker/role.js",
  ]) {
    // Below the engine, a client loads only the door's restart and the input reader (node builtins and the domain).
    const heavy = runtimeGraph(entry).filter(
      (m) => m === "better-sqlite3" || (/^(engine|ledger|files|substrate)\//.test(m) && !belowForClients.has(m)),
    );
    assert.deepEqual(heavy, [], `${entry} loads ${heavy.join(", ")}`);
  }
});

/** dist/bundle, built beside dist/src by scripts/bundle.mjs; its listings name modules from the package root. */
const BUNDLE_DIR = resolve(SRC, "..", "bundle");
const ROOT = resolve(SRC, "..", "..");

test("each bundle holds only modules of its entry's graph; a worker's client none of SQLite, the engine, ledger, files or substrate", () => {
  const listings = readdirSync(BUNDLE_DIR).filter((n) => n.endsWith(".inputs.json"));
  assert.deepEqual(listings.sort(), ["cli.inputs.json", "worker.inputs.json"], "no bundle built: run npm run build");
  for (const listing of listings) {
    const { entry, outside, inputs, packages } = JSON.parse(readFileSync(join(BUNDLE_DIR, listing), "utf8")) as {
      entry: string;
      outside: string[];
      inputs: string[];
      packages: string[];
    };
    const ofSrc = (p: string) => relative(SRC, resolve(ROOT, p));
    const graph = new Set(runtimeGraph(ofSrc(entry)));
    assert.deepEqual(
      [...inputs, ...outside].filter((m) => !m.startsWith("dist/src/") || !graph.has(ofSrc(m))),
      [],
      `${listing}: modules outside ${entry}'s graph`,
    );
    const worker = listing === "worker.inputs.json";
    // The packages built in are the CLI's commander and better-sqlite3 (scripts/bundle.mjs); the worker's client none.
    assert.deepEqual(packages, worker ? [] : ["better-sqlite3", "commander"], `${listing}: packages built in`);
    const heavy = inputs
      .map(ofSrc)
      .filter((m) => /^(engine|ledger|files|substrate)\//.test(m) && !belowForClients.has(m));
    if (worker) assert.deepEqual(heavy, [], `${listing} holds ${heavy.join(", ")}`);
    // Loaded beside the bundle: node builtins, the named outside modules (the worker's fallback, the door's restart),
    // and for the CLI the packages it depends on; never a module of ours by a path (a second copy of it).
    const bundle = readFileSync(join(BUNDLE_DIR, listing.replace(/\.inputs\.json$/, ".cjs")), "utf8");
    const allowed = new Set(outside.map((o) => relative(BUNDLE_DIR, resolve(ROOT, o))));
    // Every load is of a literal, so the list below is the whole of what a bundle loads.
    const computed = /(?<![\w$.])(?:require|import)\((?!\s*["'])/.exec(bundle);
    assert.equal(
      computed,
      null,
      `${listing}: a load not of a string literal: ${bundle.slice(computed?.index).slice(0, 60)}`,
    );
    const stray = [...bundle.matchAll(/(?<![\w$.])(?:require|import)\(\s*["']([^"']+)["']\s*\)/g)]
      .map((m) => m[1]!)
      .filter(
        (s) => !s.startsWith("node:") && !allowed.has(s) && (worker || s.startsWith(".") || packages.includes(s)),
      );
    assert.deepEqual(stray, [], `${listing}: the bundle loads more than node builtins and its outside modules`);
    // The build writes a bundle in ASCII (scripts/bundle.mjs), so node holds its source as a one-byte string.
    const wide = /[^\x00-\x7f]/.exec(bundle);
    assert.equal(wide, null, `${listing}: the bundle is not ASCII at ${wide?.index}`);
  }
});

test("worker text reaches a terminal only through the one output filter: verbs write through the Io, pi's chat through notice()", () => {
  const problems: string[] = [];
  for (const file of files(join(SRC, "surfaces"))) {
    const name = relative(SRC, file);
    const text = readFileSync(file, "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    // `docket notify test` hands the terminal sink stderr: it writes its own OSC sequence, whose text domain/talk/notify.ts made plain.
    const own = name === "surfaces/shared/verbs/notify.js";
    if (
      name.startsWith("surfaces/shared/verbs/") &&
      !own &&
      /process\.(stdout|stderr)|console\.(log|error|warn|info)/.test(text)
    )
      problems.push(`${name} writes around the Io`);
    if (name.startsWith("surfaces/pi/") && name !== "surfaces/pi/parent/chat-notice.js" && /\.notify\(/.test(text))
      problems.push(`${name} notifies around chat-notice's filter`);
  }
  const run = readFileSync(join(SRC, "surfaces/shared/verbs/run.js"), "utf8");
  assert.match(run, /const io = visibleIo\(raw\)/, "runCli hands every verb the filtered Io");
  assert.deepEqual(problems, []);
});

/** The one module that parses and prints reviewable refs (worker, combined and stored versions, and their change sets). */
const REF_MODULE = "domain/deliverables/refs.js";
const REF_PREFIX = "(?:worker-deliverable|worker-changes|combined|combined-changes|deliverable):";
const REF_SNIFFING: [RegExp, string][] = [
  [new RegExp(`\\.startsWith\\(\\s*["'\`]${REF_PREFIX}`), "tests a ref's prefix"],
  [new RegExp(`/\\^(?:\\(\\?:)?${REF_PREFIX}`), "matches a ref's prefix with a regex"],
  [new RegExp(`["']${REF_PREFIX}["']\\.length`), "cuts a ref's prefix"],
  [new RegExp(`\`${REF_PREFIX}\\$\\{`), "prints a ref by hand"],
];

test("no prefix-sniffing of refs outside the ref module: every reviewable ref is parsed and printed by domain/deliverables/refs.ts", () => {
  const problems = files(SRC).flatMap((file) => {
    const name = relative(SRC, file);
    if (name === REF_MODULE) return [];
    const text = readFileSync(file, "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    return REF_SNIFFING.filter(([re]) => re.test(text)).map(([, what]) => `${name} ${what}`);
  });
  assert.deepEqual(problems, []);
});

const CARD_VERB_MODULE = "domain/review/card-actions.ts";
/** The authority list names every verb only a human may run, card verb or not: a rule of who, not a list of card verbs. */
const HUMAN_VERB_LIST = "domain/authority.ts";
const CARD_VERB_WORDS = [
  "approve",
  "reject",
  "revise",
  "answer",
  "tell",
  "promote",
  "discard",
  "use",
  "save",
  "respawn",
  "combine",
];
/** How many distinct card verbs a run of quoted words (a list, a set, a union type) or an object's keys names. */
const cardVerbsIn = (text: string): number =>
  new Set(CARD_VERB_WORDS.filter((v) => new RegExp(`["']${v}["']|\\b${v}:\\s*\\{`).test(text))).size;

test("one declaration of card verbs (domain/review/card-actions.ts): the engine's request type, the web's set and pi's keys derive from it", () => {
  const problems = files(SRC).flatMap((file) => {
    const name = relative(SRC, file).replace(/\.js$/, ".ts");
    if (name === CARD_VERB_MODULE || name === HUMAN_VERB_LIST) return [];
    const text = readFileSync(join(SRC, "..", "..", "src", name), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    const lists = [...text.matchAll(/(?:["'][a-z-]+["']\s*[,|]\s*){5,}["'][a-z-]+["']/g)].map((m) => m[0]);
    const objects = [...text.matchAll(/\{(?:\s*[a-z]+:\s*\{[^{}]*\},?){6,}\s*\}/g)].map((m) => m[0]);
    return [...lists, ...objects].filter((l) => cardVerbsIn(l) >= 6).map((l) => `${name}: ${l.slice(0, 60)}…`);
  });
  assert.deepEqual(problems, []);
});

const FENCE_MODULE = "engine/protocol/fenced.ts";
/**
 * Commands naming a worker that the fence must not refuse: a stale generation's exit is still written on its own launch
 * row, and a paste that failed puts its claimed messages back even if the worker exited meanwhile.
 */
const UNFENCED_WORKER_COMMANDS = new Set(["worker.exited", "inbox.unclaim"]);

test("every worker call's command is fenced by construction: only engine/protocol/fenced.ts calls the fence", () => {
  const problems = files(join(SRC, "engine")).flatMap((file) => {
    const name = relative(SRC, file).replace(/\.js$/, ".ts");
    if (name === FENCE_MODULE) return [];
    const text = readFileSync(join(SRC, "..", "..", "src", name), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    const fence = /\bcheckFence\b(?!On)/.test(text) ? [`${name} calls checkFence: use runFenced or fencedStep`] : [];
    // A command whose request names the calling worker (`{ who, … }`) is a worker call: it must go through the fence.
    const unfenced = [...text.matchAll(/ctx\.commands\.run\(\s*"([^"]+)",\s*\{\s*who\b/g)]
      .filter((m) => !UNFENCED_WORKER_COMMANDS.has(m[1]!))
      .map((m) => `${name} runs the worker command ${m[1]} unfenced: use runFenced`);
    return [...fence, ...unfenced];
  });
  assert.deepEqual(problems, []);
});

const QUESTIONS_MODULE = "ledger/workers/questions.ts";

test("one ledger module owns the questions table: no other module's SQL names it (migrations aside)", () => {
  const problems = files(join(SRC, "ledger")).flatMap((file) => {
    const name = relative(SRC, file).replace(/\.js$/, ".ts");
    if (name === QUESTIONS_MODULE || name.startsWith("ledger/core/migrations/")) return [];
    const text = readFileSync(join(SRC, "..", "..", "src", name), "utf8");
    return /\b(?:FROM|JOIN|UPDATE|INTO)\s+questions\b/i.test(text) ? [name] : [];
  });
  assert.deepEqual(problems, []);
});

test("the engine's ground floor imports nothing above it: context.ts imports nothing in engine/ (open.ts composes)", () => {
  // The source, not the build: a type-only import is a circle too, and tsc erases it from the JS.
  const source = readFileSync(join(SRC, "..", "..", "src", "engine", "context.ts"), "utf8");
  const within = [
    ...source.matchAll(/(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g),
  ]
    .map((m) => m[1] ?? m[2]!)
    .filter((spec) => spec.startsWith(".") && layerOf(resolve(SRC, "engine", spec)) === "engine");
  assert.deepEqual(within, []);
});

/** Where a surface makes an engine: a process's composition point (the CLI's main and pi's role use session.ts). */
const ENGINE_MAKERS = new Set(["surfaces/shared/session.ts", "surfaces/door/server.ts", "surfaces/web/main.ts"]);

test("verbs receive the engine from their composition point: no surface fetches a global one or opens its own", () => {
  const problems = files(join(SRC, "surfaces")).flatMap((file) => {
    const name = relative(SRC, file).replace(/\.js$/, ".ts");
    const text = readFileSync(join(SRC, "..", "..", "src", name), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    const found: string[] = [];
    const opens = /\bopenEngine\b/.test(text) && !ENGINE_MAKERS.has(name);
    if (opens) found.push(`${name} opens an engine: take the one handed to it`);
    const keeps = /^(?:let|var)\s+\w+\s*:[^=;]*\bEngine(?:Context|Session)\b/m.test(text);
    if (keeps) found.push(`${name} keeps an engine in module state`);
    if (/^export\s+(?:function|const)\s+engine\b/m.test(text)) found.push(`${name} exports a global engine()`);
    const fetches = /import\s*\{[^}]*\bengine\b[^}]*\}\s*from\s*["'][^"']*session\.js["']/.test(text);
    if (fetches) found.push(`${name} imports a global engine()`);
    return found;
  });
  assert.deepEqual(problems, []);
});

/** The agent adapters: the trait table (domain/agents/) and each agent's launcher, screens and records (substrate/agents/). */
const AGENT_ADAPTERS = ["domain/agents/", "substrate/agents/"];
const AGENT_NAME = `["'](?:pi|claude|codex|command)["']`;
/** `x === "claude"`, `"pi" !== x`, `case "codex":`, `["pi", "command"].includes(x)`: code asking which agent it is. */
const AGENT_NAME_COMPARISON = new RegExp(
  `[!=]==?\\s*${AGENT_NAME}|${AGENT_NAME}\\s*[!=]==?|\\bcase\\s+${AGENT_NAME}\\s*:|\\[\\s*${AGENT_NAME}(?:\\s*,\\s*${AGENT_NAME})*\\s*,?\\s*\\]\\.includes\\(`,
  "g",
);
const MAX_AGENT_NAME_COMPARISONS = 3;

test("which agent a worker runs is asked of the trait table (domain/agents/traits.ts), not by comparing its name", () => {
  const found = files(SRC).flatMap((file) => {
    const name = relative(SRC, file).replace(/\.js$/, ".ts");
    if (AGENT_ADAPTERS.some((dir) => name.startsWith(dir))) return [];
    const text = readFileSync(join(SRC, "..", "..", "src", name), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    return [...text.matchAll(AGENT_NAME_COMPARISON)].map((m) => `${name}: ${m[0]}`);
  });
  assert.ok(
    found.length <= MAX_AGENT_NAME_COMPARISONS,
    `${found.length} agent-name comparisons outside ${AGENT_ADAPTERS.join(" and ")} (at most ${MAX_AGENT_NAME_COMPARISONS}): add a trait instead\n${found.join("\n")}`,
  );
});

/** Where a worker runs is one port: its places (engine/places/) and the host code they delegate to (engine/hosts/). */
const PLACE_ROOMS = ["engine/places/", "engine/hosts/", "substrate/ssh/"];
const WHERE_BRANCHES: [RegExp, string][] = [
  [/\b(?:hostOf|tmuxFor|connectHost|remoteTmux)\(/, "asks which host or tmux a worker is on"],
  [
    /\b(?:remoteLivePaths|captureRemote|remoteSource|settleRemote|resetRemote|retireRemote|launchRemote|prepareRemoteWorkspace|reachHost|assertRemoteSpawn|hostPanes|remoteAttachArgv|decideHostContainment)\b/,
    "calls a host's helper",
  ],
  [/\bexecution\??\.host\s*[!=]==|[!=]==\s*[\w.?]*execution\??\.host\b/, "branches on execution.host"],
];

test("where a worker runs is asked of its place (engine/places/): no branch on a host outside the places and hosts rooms", () => {
  const problems = files(SRC).flatMap((file) => {
    const name = relative(SRC, file).replace(/\.js$/, ".ts");
    if (PLACE_ROOMS.some((room) => name.startsWith(room))) return [];
    const text = readFileSync(join(SRC, "..", "..", "src", name), "utf8").replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, "");
    const found = WHERE_BRANCHES.filter(([re]) => re.test(text)).map(([, what]) => `${name} ${what}`);
    // The engine reaches a host's code through a place; a surface only through `docket hosts` (engine/hosts/hosts.ts).
    for (const m of text.matchAll(
      /(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    )) {
      const target = relative(SRC, resolve(dirname(join(SRC, name)), m[1] ?? m[2]!));
      if (target.startsWith("engine/hosts/") && (name.startsWith("engine/") || target !== "engine/hosts/hosts.js"))
        found.push(`${name} imports ${target}`);
    }
    return found;
  });
  assert.deepEqual(problems, []);
});
