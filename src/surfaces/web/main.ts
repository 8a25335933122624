// The review page's server process (bin/docket-web.js): opens the engine for this project, listens on loopback,
// leaves its presence record, prints the one sign-in address, and cleans up on Ctrl-C or SIGTERM.

import { randomBytes } from "node:crypto";
import { resolveWebAddress } from "../../domain/web/address.js";
import { exitCodeFor, isDocketError } from "../../domain/errors.js";
import { visibleText } from "../../domain/text/visible-text.js";
import { openEngine } from "../../engine/open.js";
import { openInBrowser } from "../../engine/web/launch.js";
import {
  assertHumanForWeb,
  registerWebServer,
  unregisterWebServer,
  webLoginUrl,
  type WebPresence,
} from "../../engine/web/presence.js";
import { startNotifyDispatcher } from "../../engine/talk/notify-dispatch.js";
import { startWebServer } from "./server.js";

interface Args {
  host?: string;
  port?: string;
  open: boolean;
  json: boolean;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { open: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--open") args.open = true;
    else if (a === "--json") args.json = true;
    else if (a === "--host" || a === "--port") args[a.slice(2) as "host" | "port"] = argv[++i];
    else throw new Error(`docket-web: unknown argument ${JSON.stringify(a)} (it is started by \`docket web\`)`);
  }
  return args;
}

export async function main(argv: readonly string[]): Promise<number> {
  let ctx;
  try {
    const args = parseArgs(argv);
    ctx = openEngine({ env: process.env, cwd: process.cwd() });
    assertHumanForWeb(ctx);
    const address = resolveWebAddress({ host: args.host, port: args.port });
    const secret = randomBytes(32).toString("base64url");
    const instance = randomBytes(12).toString("base64url");
    let presence: WebPresence | undefined;
    const engineCtx = ctx;
    // Each sign-in spends its key: the record then names the next one, for `docket web` to print to the human.
    const onLoginKey = (login: string) => {
      if (presence) registerWebServer(engineCtx, (presence = { ...presence, login }));
    };
    const server = await startWebServer({
      ctx,
      host: address.host,
      port: address.port,
      secret,
      instance,
      onLoginKey,
      log: (l) => process.stderr.write(`${visibleText(l)}\n`),
    });
    presence = {
      schemaVersion: 1,
      pid: process.pid,
      host: server.host,
      port: server.port,
      secret,
      instance,
      projectRoot: ctx.projectRoot(),
      startedAt: new Date().toISOString(),
    };
    registerWebServer(ctx, presence);
    // The long-lived process sends notifications as they come due; the claim keeps it to once.
    const dispatcher = startNotifyDispatcher(ctx, {
      holder: `web:${process.pid}`,
      onError: (e) => process.stderr.write(`docket web: notifications: ${e.message}\n`),
    });
    const url = webLoginUrl(presence);
    if (args.json)
      process.stdout.write(
        `${JSON.stringify({ url, pid: process.pid, started: true, projectRoot: presence.projectRoot })}\n`,
      );
    else
      process.stdout.write(
        `docket web · ${presence.projectRoot}\n  open: ${url}\n  (loopback only; the address signs one browser in; Ctrl-C stops the server)\n`,
      );
    if (args.open) {
      const failed = await openInBrowser(url);
      if (failed) process.stderr.write(`could not open a browser (${failed}); open the address yourself\n`);
    }
    const engine = ctx;
    await new Promise<void>((done) => {
      const stop = () => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        unregisterWebServer(engine, instance);
        // The ledger closes after both: a notification round under way records what its sinks did first.
        void Promise.all([dispatcher.stop(), server.close()]).then(() => done());
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    return 0;
  } catch (error) {
    process.stderr.write(
      `docket web: ${visibleText(`${(error as Error).message}${isDocketError(error) && error.hint ? ` (${error.hint})` : ""}`)}\n`,
    );
    return isDocketError(error) ? exitCodeFor(error) : 1;
  } finally {
    ctx?.close();
  }
}
