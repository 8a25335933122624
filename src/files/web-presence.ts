// The record a running `docket web` server leaves for this project: pid, address, its per-start secret, instance id.
// Private (0600 in a 0700 folder), replaced atomically, removed by its own instance only; read back as untrusted JSON.

import { createHash } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { HomeLayout } from "./home.js";

export interface WebPresence {
  schemaVersion: 1;
  pid: number;
  host: string;
  port: number;
  /** The per-start secret: the bearer token of `/_ping`, and the first sign-in key. */
  secret: string;
  /** The current single-use sign-in key, once the first was used (each sign-in replaces it). */
  login?: string;
  /** A public random id of this start, so a reused pid is never mistaken for the server. */
  instance: string;
  projectRoot: string;
  startedAt: string;
}

/** `$DOCKET_HOME/web/<sha256(projectRoot)[:16]>.json`: one server per project and home. */
export function webPresencePath(home: HomeLayout, projectRoot: string): string {
  return join(home.root, "web", `${createHash("sha256").update(projectRoot).digest("hex").slice(0, 16)}.json`);
}

export function writeWebPresence(path: string, presence: WebPresence): void {
  const dir = join(path, "..");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, "w", 0o600);
  try {
    writeSync(fd, `${JSON.stringify(presence)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** The record, or undefined when there is none or it is not one this build wrote (then it is ignored, not trusted). */
export function readWebPresence(path: string): WebPresence | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined; // no record (ENOENT) or a torn/foreign file: treated as no server
  }
  const p = value as Partial<WebPresence>;
  const ok =
    p &&
    p.schemaVersion === 1 &&
    Number.isInteger(p.pid) &&
    Number.isInteger(p.port) &&
    typeof p.host === "string" &&
    typeof p.secret === "string" &&
    typeof p.instance === "string" &&
    typeof p.projectRoot === "string" &&
    typeof p.startedAt === "string";
  return ok && (p.login === undefined || typeof p.login === "string") ? (p as WebPresence) : undefined;
}

/** Removes the record if it is still this instance's (a newer server's record is left alone). */
export function removeWebPresence(path: string, instance: string): void {
  if (readWebPresence(path)?.instance === instance) rmSync(path, { force: true });
}
