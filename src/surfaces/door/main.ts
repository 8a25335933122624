// `docket door serve <dir>`: the door process for one Docket home, started detached by its supervisor. It serves
// until no worker needs it (docs/door.md); a second door for the same home sees the first and exits at once.
// `docket door supervise <dir>`: the supervisor that restarts the door when it dies (loads no engine).
// `docket door stop`: stops this home's door now (a script that killed its workers' tmux server leaves nothing running).

import { resolve } from "node:path";

const USAGE =
  "usage: docket door serve <door directory>       (started by Docket itself when a worker needs its door)\n" +
  "       docket door supervise <door directory>   (started by Docket itself: restarts the door when it dies)\n" +
  "       docket door stop                         (stops this home's door now; the next spawn starts it again)";

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === "stop" && argv.length === 1) return stop();
  if ((argv[0] !== "serve" && argv[0] !== "supervise") || argv.length !== 2) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (argv[0] === "supervise") return (await import("./supervise.js")).supervise(resolve(argv[1]!));
  const { startDoor } = await import("./server.js");
  const door = await startDoor(resolve(argv[1]!));
  if (!door) return 0;
  await door.closed;
  return 0;
}

async function stop(): Promise<number> {
  const { createEngineSession } = await import("../shared/session.js");
  const { doorRunning, stopDoor } = await import("../../engine/door/door.js");
  const session = createEngineSession({ env: process.env, cwd: process.cwd(), holder: `cli:${process.pid}` });
  const ctx = session.engine();
  const pid = stopDoor(ctx);
  for (const until = Date.now() + 5_000; pid !== undefined && doorRunning(ctx) && Date.now() < until; )
    await new Promise((r) => setTimeout(r, 50));
  process.stdout.write(
    pid === undefined
      ? "no door runs for this home\n"
      : doorRunning(ctx)
        ? `asked the door (pid ${pid}) to stop\n`
        : `stopped the door (pid ${pid})\n`,
  );
  await session.close();
  return 0;
}
