// A notify.command for tests: a node script that appends each batch of event lines it is given to a file.

import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes the receiver into `dir` and the home's config.json naming it (batchSeconds 0); the file it appends to. */
export function notifyReceiver(home: string, dir: string): string {
  const out = join(dir, "received.ndjson");
  const receiver = join(dir, "receiver.mjs");
  writeFileSync(
    receiver,
    `import { appendFileSync, readFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(out)}, readFileSync(0));\n`,
  );
  writeFileSync(
    join(home, "config.json"),
    JSON.stringify({ notify: { command: [process.execPath, receiver], batchSeconds: 0 } }),
  );
  return out;
}
