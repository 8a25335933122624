// `docket worker <verb>` at the cost of a bare node process: only the verb's own module and the door's client are loaded,
// its command line parsed by worker-argv (no commander). Help, and any line it declines, go to the full worker program
// (worker-main), so every usage message and exit code stays commander's (bin/docket.js sends worker lines here).

import { createFdIo } from "../shared/fd-io.js";
import { extractJson, report } from "../shared/verbs/outcome.js";
import type { WorkerSubcommands } from "../shared/verbs/worker.js";
import { parseVerb, recorder } from "./worker-argv.js";

/** Each worker verb and the registrars of the one module that declares it. */
export const VERB_MODULES: Readonly<Record<string, () => Promise<WorkerSubcommands[]>>> = {
  heartbeat: async () => [(await import("../shared/verbs/worker-lifecycle.js")).registerWorkerLifecycle],
  exited: async () => [(await import("../shared/verbs/worker-lifecycle.js")).registerWorkerLifecycle],
  report: async () => [(await import("../shared/verbs/worker-report.js")).registerWorkerReport],
  reconcile: async () => [(await import("../shared/verbs/worker-report.js")).registerWorkerReconcile],
  hook: async () => [(await import("../shared/verbs/worker-hook.js")).registerWorkerHook],
  gate: async () => [(await import("../shared/verbs/worker-hook.js")).registerWorkerGate],
  ...Object.fromEntries(
    ["done", "wait", "todos", "consult", "note", "fail"].map((v) => [
      v,
      async () => [(await import("../shared/verbs/worker-protocol.js")).registerWorkerProtocol],
    ]),
  ),
};

/** Not a commander error: the fast path never meets one (it declines such lines). */
class NoCommanderError extends Error {}

export async function main(argv: string[]): Promise<number> {
  const { args, json } = extractJson(argv);
  const [group, verbName, ...rest] = args;
  const load = group === "worker" && verbName !== undefined ? VERB_MODULES[verbName] : undefined;
  if (load) {
    const io = createFdIo(json);
    const { group: stand, verbs } = recorder();
    for (const register of await load()) register(stand, io);
    const verb = verbs.get(verbName!);
    let call: unknown[] | undefined;
    try {
      call = verb ? parseVerb(verb, rest) : undefined;
      if (call) {
        await verb!.action!(...call, stand);
        return 0;
      }
    } catch (error) {
      return report(io, error, NoCommanderError as unknown as typeof import("commander").CommanderError);
    }
  }
  return (await import("./worker-main.js")).main(argv);
}
