// `docket web`: the review page in a browser. Finds this project's running server or starts one: in the foreground
// on a terminal, detached with --detach or inside pi (`/docket web`), so a session is never held by a server.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit, ReportedExit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

interface WebOptions {
  port?: string;
  host?: string;
  open?: boolean;
  detach?: boolean;
  stop?: boolean;
}

export function registerWebCommand(program: Command, io: Io, engine: EngineOpener): void {
  declareVerb(program, "web")
    .option("--port <n>", "port to listen on (default: any free port)")
    .option("--host <address>", "loopback address to listen on: 127.0.0.1 (default), ::1 or localhost")
    .option("--open", "open the page in your browser (the default on a terminal)")
    .option("--no-open", "print the address only")
    .option("--detach", "start the server in the background and return (always so inside pi)")
    .option("--stop", "stop this project's running server")
    .action(async (opts: WebOptions) => {
      const { resolveWebAddress } = await import("../../../domain/web/address.js");
      const { assertHumanForWeb, findWebServer, webLoginUrl } = await import("../../../engine/web/presence.js");
      const launch = await import("../../../engine/web/launch.js");
      const ctx = engine();
      assertHumanForWeb(ctx);
      const address = resolveWebAddress({ host: opts.host, port: opts.port });
      if (opts.stop) {
        const stopped = await launch.stopWebServer(ctx);
        emit(io, { stopped: Boolean(stopped), pid: stopped?.pid ?? null }, (r) =>
          r.stopped ? `stopped the review page (pid ${r.pid})` : `no review page runs for ${ctx.projectRoot()}`,
        );
        return;
      }
      const open = opts.open ?? (io.interactive && !io.parent);
      const found = await findWebServer(ctx);
      if (found || opts.detach || io.parent) {
        const p = found ?? (await launch.startWebDetached(ctx, { ...address, open: false }));
        const url = webLoginUrl(p);
        const failed = open ? await launch.openInBrowser(url) : undefined;
        emit(io, { url, pid: p.pid, started: !found, projectRoot: p.projectRoot }, (r) => [
          `${r.started ? "review page started" : "review page already running"} for ${r.projectRoot} (pid ${r.pid})`,
          `  open: ${r.url}`,
          ...(failed ? [`  could not open a browser (${failed}); open the address yourself`] : []),
          `  stop it with: docket web --stop`,
        ]);
        return;
      }
      const code = await launch.runWebInForeground(ctx, { ...address, open, json: io.json });
      if (code !== 0) throw new ReportedExit(code === 2 ? 2 : 1); // the server printed its own refusal
    });
}
