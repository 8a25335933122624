#!/usr/bin/env node
// The review page's server process, started by `docket web` (foreground or detached); not a command of its own.
import { main } from "../dist/src/surfaces/web/main.js";

process.exitCode = await main(process.argv.slice(2));
