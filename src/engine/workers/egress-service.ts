// The egress proxy as the door runs it: a relayed connection is let in only with its worker's current generation and
// run token, each request is checked against that launch's allow list, and requests are summed per minute in memory
// and written to the ledger in one command a second at most (not one per request).

import type { Server } from "node:net";
import { egressVerdict } from "../../domain/network-policy.js";
import { parseEgressHello } from "../../domain/workers/egress-plan.js";
import type { EgressTally } from "../../ledger/workers/egress.js";
import { checkFenceOn } from "../../ledger/workers/workers.js";
import { createEgressProxy, type EgressRecord } from "../../substrate/egress/proxy.js";
import type { EngineContext } from "../context.js";
import { recordEgress } from "./egress.js";
import { readEgressPolicy, type LaunchNetwork } from "./network-view.js";

interface Relayed {
  worker: string;
  generation: number;
  network: LaunchNetwork | undefined;
}

export interface EgressService {
  server: Server;
  /** Writes what is summed so far (the door calls it before it stops). */
  flush(): void;
  close(): void;
}

const FLUSH_MS = 1_000;

export function createEgressService(ctx: EngineContext, onError: (error: Error) => void): EgressService {
  const tallies = new Map<string, EgressTally>();
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    timer = undefined;
    if (tallies.size === 0) return;
    const batch = [...tallies.values()];
    tallies.clear();
    try {
      recordEgress(ctx, batch);
    } catch (error) {
      onError(error as Error);
    }
  };

  const add = (r: EgressRecord<Relayed>) => {
    const at = r.at.toISOString();
    const minute = `${at.slice(0, 16)}Z`;
    const key = JSON.stringify([r.who.worker, r.who.generation, r.host, r.port, r.allowed, minute]);
    const t = tallies.get(key);
    if (t) {
      t.requests++;
      t.bytesUp += r.bytesUp;
      t.bytesDown += r.bytesDown;
      t.lastAt = at;
    } else
      tallies.set(key, {
        worker: r.who.worker,
        generation: r.who.generation,
        host: r.host,
        port: r.port,
        allowed: r.allowed,
        minute,
        requests: 1,
        bytesUp: r.bytesUp,
        bytesDown: r.bytesDown,
        firstAt: at,
        lastAt: at,
      });
    timer ??= setTimeout(flush, FLUSH_MS);
    timer.unref();
  };

  const server = createEgressProxy<Relayed>({
    authorize(line) {
      const hello = parseEgressHello(line);
      if (!hello) return { ok: false, why: "a relayed connection must start with its worker's identity" };
      const who = { worker: hello.worker, generation: hello.generation, runToken: hello.token };
      try {
        checkFenceOn(ctx.db, who);
      } catch (error) {
        return { ok: false, why: (error as Error).message };
      }
      return { ok: true, who: { ...who, network: readEgressPolicy(ctx, who.worker, who.generation) } };
    },
    decide(who, host, port) {
      const allow = who.network?.mode === "allow" ? who.network.allow : [];
      return egressVerdict(allow, host, port);
    },
    record: add,
  });

  return {
    server,
    flush: () => {
      if (timer) clearTimeout(timer);
      flush();
    },
    close: () => server.close(),
  };
}
