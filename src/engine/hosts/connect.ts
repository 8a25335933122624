// A named host from the user's config, connected: its ssh target (control sockets private to this home) and its
// directory resolved on the host. A name only a project's config gives is refused: a project may not add hosts.

import type { HostEntry } from "../../domain/hosts.js";
import { refusal } from "../../domain/errors.js";
import { controlDirFor, type SshTarget } from "../../substrate/ssh/connection.js";
import { remoteHost, resolveRemoteDir, type RemoteHost } from "../../substrate/ssh/host.js";
import type { EngineContext } from "../context.js";

export function hostEntry(ctx: EngineContext, name: string): HostEntry {
  const config = ctx.config();
  const entry = config.hosts[name];
  if (entry) return entry;
  if (config.projectHosts.includes(name)) {
    throw refusal(
      "host-from-project",
      `host ${name} is named only in this project's .docket/config.json, and a project may not add hosts; nothing was started`,
      "if you trust it, add it to your own config with the hosts add verb",
    );
  }
  throw refusal("unknown-host", `no host named ${name} in your config`, "`docket hosts ls` lists them");
}

export function sshTargetOf(ctx: EngineContext, entry: HostEntry): SshTarget {
  return {
    name: entry.name,
    destination: entry.destination,
    ...(entry.sshConfig ? { sshConfig: entry.sshConfig } : {}),
    controlDir: controlDirFor(ctx.home.root, uidOf()),
  };
}

const resolvedDirs = new Map<string, string>();

/** Connects (the master is made on first use) and resolves Docket's directory there once per process. */
export function connectHost(ctx: EngineContext, name: string): RemoteHost {
  const entry = hostEntry(ctx, name);
  const target = sshTargetOf(ctx, entry);
  const key = `${entry.destination}\u0000${entry.sshConfig ?? ""}\u0000${entry.dir}`;
  let dir = resolvedDirs.get(key);
  if (dir === undefined) resolvedDirs.set(key, (dir = resolveRemoteDir(target, entry.dir)));
  return remoteHost(target, dir);
}

function uidOf(): number {
  return typeof process.getuid === "function" ? process.getuid() : 0;
}
