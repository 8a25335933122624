// Who may talk to the review page: the Host header must name this loopback server (no DNS rebinding); the per-start
// sign-in key is single-use (exchanged once for an HttpOnly SameSite=Strict session cookie, then replaced); every write
// also needs the same Origin and the session's CSRF token. Every response carries a strict Content-Security-Policy
// (docs/review-page.md).

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { urlHost } from "../../domain/web/address.js";

export interface Session {
  id: string;
  csrf: string;
}

export interface Gate {
  readonly cookieName: string;
  /** The Host header names this server (127.0.0.1/::1/localhost with our port). */
  hostAllowed(req: IncomingMessage): boolean;
  /**
   * Exchanges the current sign-in key for a new session and replaces the key (single-use): `invalid` when it is not the
   * current key, `full` when every session slot holds a live browser (a sign-in never evicts one).
   */
  login(key: string): Session | "invalid" | "full";
  /** The session named by the request's cookie. */
  session(req: IncomingMessage): Session | undefined;
  /** Why a write is refused (cross-origin, missing/wrong CSRF token, not JSON), or undefined when it may proceed. */
  writeRefusal(req: IncomingMessage, session: Session): string | undefined;
  bearerAllowed(req: IncomingMessage): boolean;
  cookie(session: Session): string;
}

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();
/** Constant-time equality of two secrets of any length (compared through their digests). */
export const sameSecret = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));

export const MAX_SESSIONS = 64;

export interface GateOptions {
  host: string;
  port: number;
  /** The per-start secret: the bearer token of `/_ping`, and the first sign-in key. */
  secret: string;
  /** Told each new sign-in key once the previous one was used (the server publishes it in its presence record). */
  onLoginKey?: (key: string) => void;
}

export function createGate(options: GateOptions): Gate {
  const { port, secret } = options;
  let loginKey: string | undefined = secret;
  const hosts = new Set([`${urlHost(options.host)}:${port}`, `localhost:${port}`]);
  if (options.host === "localhost") ["127.0.0.1", "[::1]"].forEach((h) => hosts.add(`${h}:${port}`));
  const sessions = new Map<string, Session>();
  const cookieName = `docket_${port}`;

  const cookieOf = (req: IncomingMessage): string | undefined => {
    for (const part of (req.headers.cookie ?? "").split(";")) {
      const eq = part.indexOf("=");
      if (eq > 0 && part.slice(0, eq).trim() === cookieName) return part.slice(eq + 1).trim();
    }
    return undefined;
  };

  return {
    cookieName,
    hostAllowed: (req) => hosts.has((req.headers.host ?? "").toLowerCase()),
    login(given) {
      if (loginKey === undefined || !sameSecret(given, loginKey)) return "invalid";
      if (sessions.size >= MAX_SESSIONS) return "full";
      const s: Session = { id: randomBytes(32).toString("base64url"), csrf: randomBytes(32).toString("base64url") };
      sessions.set(s.id, s);
      loginKey = randomBytes(32).toString("base64url");
      options.onLoginKey?.(loginKey);
      return s;
    },
    session(req) {
      const id = cookieOf(req);
      if (!id) return undefined;
      for (const [key, s] of sessions) if (sameSecret(key, id)) return s;
      return undefined;
    },
    writeRefusal(req, session) {
      if (req.method !== "POST") return "writes are POST requests";
      const origin = req.headers.origin;
      if (!origin || origin !== `http://${req.headers.host}`)
        return `a write from origin ${origin ?? "(none)"} is refused; only this page may write`;
      const site = req.headers["sec-fetch-site"];
      if (site !== undefined && site !== "same-origin") return `a ${site} write is refused`;
      const token = req.headers["x-docket-csrf"];
      if (typeof token !== "string" || !sameSecret(token, session.csrf))
        return "the page's CSRF token is missing or wrong; reload the page";
      if (!(req.headers["content-type"] ?? "").startsWith("application/json")) return "writes are JSON";
      return undefined;
    },
    bearerAllowed: (req) => {
      const auth = req.headers.authorization ?? "";
      return auth.startsWith("Bearer ") && sameSecret(auth.slice(7), secret);
    },
    cookie: (s) => `${cookieName}=${s.id}; HttpOnly; SameSite=Strict; Path=/`,
  };
}
