// The `docket` CLI run from its compiled modules rather than bin/docket.js's bundle: for the tests of which modules a
// command line loads. The bundle keeps the same graph lazy (a dynamic import or a seam is an init run on first use),
// but only separate modules show what loaded.

import { main } from "../../src/surfaces/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
