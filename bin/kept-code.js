// A bundle run as node would require it, with the code V8 compiled while one verb ran kept for that verb's next run.
// Node's compile cache keeps only what V8 compiles as a file loads; most of a command's functions compile later, as
// they first run (a verdict over a full queue: ~10 ms of its ~75). `createCachedData` after the run holds those too.
// The bundle's `import()`s go to node's own loader (vm's USE_MAIN_CONTEXT_DEFAULT_LOADER), resolved from the bundle's
// path; nothing in the bundle is rewritten.
"use strict";

const fs = require("node:fs");
const { basename, dirname, join } = require("node:path");
const vm = require("node:vm");

const VERB = /^[a-z][a-z-]{0,30}$/;

/**
 * `file` (a CommonJS bundle) run as a module; `verb` names what will run in it, for its kept code. The code lives in
 * `compiled/` beside the bundle, in Docket's own install (never the shared temp dir: whoever can write the cache runs
 * code in the human's commands), named by the bundle's size and time and by V8's version, so a rebuilt bundle never
 * takes another's code, and two node versions sharing an install do not replace each other's.
 * `keep()` (after a success, so a mistyped verb leaves nothing) writes it where the install is writable; a miss or a
 * read-only install only costs the compile.
 */
function requireKept(file, verb) {
  if (typeof verb !== "string" || !VERB.test(verb)) return { exports: require(file), keep() {} };
  const { size, mtimeMs } = fs.statSync(file);
  const name = `${basename(file, ".cjs")}.${verb}.${size}-${Math.trunc(mtimeMs)}.v8-${process.versions.v8}`;
  const stem = join(dirname(file), "compiled", name);
  const { path, cachedData } = keptCode(stem);
  // The wrapper node itself puts around a CommonJS module, on the bundle's first line so its positions stay true. The
  // build writes the bundle in ASCII (scripts/bundle.mjs), so latin1 reads it as it is, into a one-byte string.
  const source = `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(file, "latin1")}\n})`;
  const script = new vm.Script(source, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require("node:module").createRequire(file), module, file, dirname(file));
  return {
    exports: module.exports,
    keep() {
      const taken = cachedData !== undefined && !script.cachedDataRejected;
      if (taken && path === `${stem}.2.v8`) return;
      writeAtomically(taken ? `${stem}.2.v8` : path, () => script.createCachedData());
      if (taken) fs.rmSync(path, { force: true }); // the union replaces the first
    },
  };
}

/**
 * A verb's kept code is written twice: after its first success, then after the next, which adds what that one
 * compiled (V8 keeps every function compiled so far, the ones it was handed included): a first run over an empty queue,
 * say, is not all the verb ever runs. The second (`.2.v8`) replaces the first (`.1.v8`).
 */
function keptCode(stem) {
  for (const path of [`${stem}.2.v8`, `${stem}.1.v8`]) {
    try {
      return { path, cachedData: fs.readFileSync(path) };
    } catch {
      // not kept yet
    }
  }
  return { path: `${stem}.1.v8`, cachedData: undefined };
}

/** Whole old or whole new bytes for a command reading `target` at the same moment; nothing half-written is left. */
function writeAtomically(target, bytes) {
  const temp = `${target}.${process.pid}.tmp`;
  let fd;
  try {
    fs.mkdirSync(dirname(target), { recursive: true });
    fd = fs.openSync(temp, "wx", 0o644); // before the bytes are made (~6 ms): a read-only install stops here
  } catch {
    return; // the next run compiles again
  }
  try {
    try {
      fs.writeFileSync(fd, bytes());
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch {
    fs.rmSync(temp, { force: true }); // a full disk, say
  }
}

module.exports = { requireKept };
