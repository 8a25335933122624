// Removes tsc's output (dist/src, dist/test, dist/bench) before a build, so a source file deleted since the last build
// leaves no compiled copy behind for the tests to load or the architecture tests to read. The bundles are rewritten
// by scripts/bundle.mjs; their compile cache stays.
import { rmSync } from "node:fs";

for (const dir of ["src", "test", "bench"])
  rmSync(new URL(`../dist/${dir}`, import.meta.url), { recursive: true, force: true });
