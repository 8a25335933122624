// Where the review page may listen: loopback only (127.0.0.0/8, ::1, localhost) on a port the human chose or 0.
// The page acts with the human's authority, so no other interface is ever accepted (docs/review-page.md).

import { usageError } from "../errors.js";

export interface WebAddress {
  host: string;
  /** 0: any free port. */
  port: number;
}

const LOOPBACK_V4 = /^127\.(?:25[0-5]|2[0-4]\d|1?\d?\d)\.(?:25[0-5]|2[0-4]\d|1?\d?\d)\.(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;

export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || LOOPBACK_V4.test(host);
}

export function resolveWebAddress(input: { host?: string; port?: string | number }): WebAddress {
  const host = (input.host ?? "127.0.0.1").trim();
  if (!isLoopbackHost(host)) {
    throw usageError(
      "web-not-loopback",
      `--host ${JSON.stringify(host)} is not a loopback address; the review page listens on 127.0.0.1, ::1 or localhost only`,
      "drop --host, or pass --host 127.0.0.1",
    );
  }
  const raw = input.port ?? 0;
  const port = typeof raw === "number" ? raw : /^\d{1,5}$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw usageError("bad-port", `--port takes a number from 0 to 65535; got ${JSON.stringify(String(raw))}`);
  return { host, port };
}

/** The host part of a URL for `host` (IPv6 in brackets). */
export const urlHost = (host: string): string => (host.includes(":") ? `[${host}]` : host);
