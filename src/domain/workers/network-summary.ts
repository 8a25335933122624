// A worker's network as `show`, the card and --json tell it: its launch's mode, what its proxy allows, and every
// destination it asked for with the bytes each way. One line for the card; the list for `show` and the web card.

import type { NetworkMode } from "../network-policy.js";

/** One destination over the worker's whole life. */
export interface EgressDestination {
  host: string;
  port: number;
  allowed: boolean;
  requests: number;
  bytesUp: number;
  bytesDown: number;
  firstAt: string;
  lastAt: string;
}

export interface NetworkSummary {
  /** Its current launch's policy; null when it is not contained (or was launched before Docket recorded it). */
  mode: NetworkMode | null;
  /** What its proxy lets through (network `allow`). */
  allowed: string[];
  requests: number;
  refused: number;
  bytesUp: number;
  bytesDown: number;
  /** Every destination asked for, most recent first. */
  destinations: EgressDestination[];
}

const size = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} kB` : `${(n / 1048576).toFixed(1)} MB`;

/** `network: allow · 12 requests (1 refused) · 3.1 kB out, 40.2 kB in`; undefined when there is nothing to say. */
export function networkLine(n: NetworkSummary): string | undefined {
  if (n.mode === null) return undefined;
  const head =
    n.mode === "open"
      ? "network: open (the machine's network, nothing recorded)"
      : n.mode === "none"
        ? "network: none"
        : `network: allow (${n.allowed.join(", ") || "nothing"})`;
  if (n.requests === 0) return head;
  const refused = n.refused > 0 ? ` (${n.refused} refused)` : "";
  return `${head} · ${n.requests} request${n.requests === 1 ? "" : "s"}${refused} · ${size(n.bytesUp)} out, ${size(n.bytesDown)} in`;
}

/** `refused evil.example:443 ×2` / `allowed api.anthropic.com:443 ×5 (3.1 kB out, 40.2 kB in)`, one per destination. */
export function destinationLine(d: EgressDestination): string {
  const bytes = d.allowed ? ` (${size(d.bytesUp)} out, ${size(d.bytesDown)} in)` : "";
  return `${d.allowed ? "allowed" : "refused"} ${d.host}:${d.port} ×${d.requests}${bytes}, last ${d.lastAt}`;
}
