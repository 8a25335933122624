// `docket hosts add|ls|rm|check`: the machines workers may run on over ssh, kept in your own config.
// Each subcommand parses, makes one engine call, and renders the same result for --json and for humans.

import type { Command } from "commander";
import type { Io } from "../io.js";
import { emit } from "../io.js";
import type { EngineOpener } from "../session.js";
import { declareVerb } from "./registry.js";

export function registerHostsCommands(program: Command, io: Io, engine: EngineOpener): void {
  const hosts = declareVerb(program, "hosts");
  hosts
    .command("add")
    .description("name a host: its ssh destination, Docket's directory there, and an ssh config file (-F)")
    .argument("<name>", "a plain word")
    .argument("<destination>", "what ssh connects to: user@host or an alias of your ssh config")
    .option("--dir <path>", "Docket's directory on the host (absolute, or relative to its home; default .docket-host)")
    .option("--ssh-config <file>", "an ssh config file for this host, passed to ssh as -F")
    .option("--docket <path>", "bin/docket.js on the host (default: the same path as here)")
    .action(async (name: string, destination: string, opts: { dir?: string; sshConfig?: string; docket?: string }) => {
      const { addHost } = await import("../../../engine/hosts/hosts.js");
      const entry = addHost(engine(), {
        name,
        destination,
        dir: opts.dir,
        sshConfig: opts.sshConfig,
        docketBin: opts.docket,
      });
      emit(io, { host: entry }, (r) => `host ${r.host.name}: ${r.host.destination} (dir ${r.host.dir})`);
    });
  hosts
    .command("ls")
    .description("the hosts in your config")
    .action(async () => {
      const { listHosts } = await import("../../../engine/hosts/hosts.js");
      emit(io, { hosts: listHosts(engine()) }, (r) =>
        r.hosts.length === 0
          ? "no hosts (docket hosts add NAME <destination>)"
          : r.hosts.map(
              (h) => `${h.name.padEnd(12)} ${h.destination}  dir ${h.dir}${h.sshConfig ? `  -F ${h.sshConfig}` : ""}`,
            ),
      );
    });
  hosts
    .command("rm")
    .description("forget a host (its workers keep running there until you delete them)")
    .argument("<name>")
    .action(async (name: string) => {
      const { removeHost } = await import("../../../engine/hosts/hosts.js");
      emit(io, removeHost(engine(), name), (r) => `removed host ${r.removed}`);
    });
  hosts
    .command("check")
    .description(
      "is the host reachable, are git, tmux and node (and --agent) there with their versions, and can its bubblewrap contain workers",
    )
    .argument("<name>")
    .option("--agent <agent>", "also check for this agent's CLI (pi, claude, codex)")
    .action(async (name: string, opts: { agent?: string }) => {
      const { checkHost } = await import("../../../engine/hosts/hosts.js");
      emit(io, checkHost(engine(), name, { agent: opts.agent }), (r) =>
        !r.reachable
          ? `${r.host}: unreachable: ${r.error}`
          : [
              `${r.host}: reachable`,
              ...r.tools.map((t) => `  ${t.tool.padEnd(7)} ${t.version ?? `missing: ${t.install}`}`),
              r.missing.length === 0 ? "  nothing missing" : `  missing: ${r.missing.join(", ")}`,
              r.sandbox?.contained
                ? `  contained: yes (bubblewrap ${r.sandbox.bwrap})`
                : `  contained: no (${r.sandbox?.reason}; ${r.sandbox?.fix})`,
            ],
      );
    });
}
