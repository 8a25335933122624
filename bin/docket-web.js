#!/usr/bin/env node
// The review page's server process, started by `docket web` (foreground or detached); not a command of its own.
// CommonJS like every file in bin/ (bin/package.json): the surface itself is an ES module, imported.
"use strict";

import("../dist/src/surfaces/web/main.js")
  .then(({ main }) => main(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code;
  });
