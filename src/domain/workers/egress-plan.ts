// How a contained worker with network `allow` reaches its proxy: a relay on 127.0.0.1 inside its network namespace
// forwards each connection to the door's egress socket; agents find it through the proxy variables they honour.
// Pure: the same argv and variables apply wherever the sandbox runs (this machine, or a host with its own door).

/** The door's egress socket, beside the worker sockets in its directory. */
export const EGRESS_SOCKET = "egress.sock";

/** The relay's port inside the worker's own network namespace (nothing else listens there). */
const EGRESS_PORT = 3128;

/** Variables that send an agent's HTTP(S) through the relay: curl, Python, Go and Bun read them, Node with NODE_USE_ENV_PROXY. */
export function egressEnv(port: number = EGRESS_PORT): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return {
    HTTPS_PROXY: url,
    HTTP_PROXY: url,
    https_proxy: url,
    http_proxy: url,
    ALL_PROXY: url,
    NODE_USE_ENV_PROXY: "1",
    // Nothing bypasses the proxy: the namespace has no other way out, so a bypassed name only fails less clearly.
    NO_PROXY: "",
    no_proxy: "",
  };
}

/**
 * The argv prefix that runs the agent under the relay: node (small young generation), the relay, the socket and port,
 * then `--` and the agent's argv. The relay listens before it starts the agent and exits with the agent's status.
 */
export function relayArgv(input: { node: string; relay: string; socket: string; port?: number }): string[] {
  return [input.node, "--max-semi-space-size=1", input.relay, input.socket, String(input.port ?? EGRESS_PORT), "--"];
}

/** The first line of every relayed connection: who the worker is, checked by the door against the ledger's fence. */
export interface EgressHello {
  worker: string;
  generation: number;
  token: string;
}

export function parseEgressHello(line: string): EgressHello | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  const { worker, generation, token } = v as Record<string, unknown>;
  return typeof worker === "string" && Number.isInteger(generation) && typeof token === "string"
    ? { worker, generation: generation as number, token }
    : undefined;
}
