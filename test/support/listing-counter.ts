// A pi extension for tests: appends a line to $DOCKET_TEST_LISTINGS each time pi runs `--list-models`, so a test
// can count how often Docket asked pi for its models. Loaded only when named with `pi -e`.

import { appendFileSync } from "node:fs";

export default function listingCounter(): void {
  const log = process.env.DOCKET_TEST_LISTINGS;
  if (log && process.argv.includes("--list-models")) appendFileSync(log, `${process.pid}\n`);
}
