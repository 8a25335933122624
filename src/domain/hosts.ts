// Remote hosts a worker may run on: their names, ssh destinations and directories, and the rules on each.
// Only the user's config names hosts (a host is where your code and a worker's secrets go); a project may not add one.

/** One host as the user's config keeps it (`hosts.<name>`). */
export interface HostEntry {
  name: string;
  /** What ssh connects to: `user@host`, a `Host` alias of the ssh config, … (never an option). */
  destination: string;
  /** Docket's directory on the host (absolute, or relative to the remote user's home); default `.docket-host`. */
  dir: string;
  /** An ssh config file passed as `-F` (absolute path on this machine); absent: ssh's own default. */
  sshConfig?: string;
  /** Docket's `bin/docket.js` on the host, which the worker's calls run; absent: the same path as here. */
  docketBin?: string;
}

export const DEFAULT_HOST_DIR = ".docket-host";

const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/** A host's name: a plain word (it appears in paths, tables and tmux-free places only). */
export function isHostName(name: string): boolean {
  return HOST_NAME.test(name);
}

/** Why a destination is not one ssh can be given safely as its destination argument; undefined when it is fine. */
export function destinationProblem(destination: string): string | undefined {
  if (destination === "") return "it is empty";
  if (destination.startsWith("-")) return "it starts with '-' (ssh would read it as an option)";
  if (/[\s\u0000-\u001f\u007f]/.test(destination)) return "it holds whitespace or a control character";
  return undefined;
}

/** Why a directory on the host is unusable; undefined when it is fine. */
export function hostDirProblem(dir: string): string | undefined {
  if (dir === "") return "it is empty";
  if (/[\u0000-\u001f\u007f]/.test(dir)) return "it holds a control character";
  if (dir.split("/").includes("..")) return "it climbs with '..'";
  if (dir.startsWith("-")) return "it starts with '-'";
  return undefined;
}

/** The hosts of one (trusted) config section; every malformed entry becomes a warning and is skipped. */
export function parseHosts(raw: unknown, source: string, warnings: string[]): Record<string, HostEntry> {
  const hosts: Record<string, HostEntry> = {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    warnings.push(`${source} config hosts must be an object of named hosts; ignored`);
    return hosts;
  }
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const v =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    const destination = typeof v?.destination === "string" ? v.destination : undefined;
    const dir = v?.dir === undefined ? DEFAULT_HOST_DIR : typeof v.dir === "string" ? v.dir : undefined;
    const sshConfig = v?.sshConfig;
    const docketBin = v?.docketBin;
    const problem = !isHostName(name)
      ? "its name is not a plain word"
      : destination === undefined
        ? "destination must be text"
        : (destinationProblem(destination) ??
          (dir === undefined ? "dir must be text" : hostDirProblem(dir)) ??
          (sshConfig !== undefined && (typeof sshConfig !== "string" || !sshConfig.startsWith("/"))
            ? "sshConfig must be an absolute path"
            : undefined) ??
          (docketBin !== undefined && (typeof docketBin !== "string" || !docketBin.startsWith("/"))
            ? "docketBin must be an absolute path"
            : undefined));
    if (problem) {
      warnings.push(`${source} config hosts.${name}: ${problem}; ignored`);
      continue;
    }
    hosts[name] = {
      name,
      destination: destination!,
      dir: dir!,
      ...(typeof sshConfig === "string" ? { sshConfig } : {}),
      ...(typeof docketBin === "string" ? { docketBin } : {}),
    };
  }
  return hosts;
}
