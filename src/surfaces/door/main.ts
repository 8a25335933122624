// `docket door serve <dir>`: the door process for one Docket home, started detached by whoever first needs it.
// It serves until no worker needs it (DESIGN §8b); a second door for the same home sees the first and exits at once.

import { resolve } from "node:path";
import { startDoor } from "./server.js";

const USAGE = "usage: docket door serve <door directory>   (started by Docket itself when a worker needs its door)";

export async function main(argv: string[]): Promise<number> {
  if (argv[0] !== "serve" || argv.length !== 2) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const door = await startDoor(resolve(argv[1]!));
  if (!door) return 0;
  await door.closed;
  return 0;
}
