// The integrity record of one worker (fleet/<id>/integrity.json, 0600): the checkout as a read-only worker found it,
// and the files its workspace had changed when its plan gate was asked and discharged. Read back as untrusted JSON.

import { createHash } from "node:crypto";
import { join } from "node:path";
import type { HomeLayout } from "../home.js";
import { readNoFollow } from "../no-follow.js";
import { WORKER_FILES, readWorkerText, writeWorkerFile } from "./worker-files.js";

export interface IntegrityRecord {
  /** A read-only worker's checkout at spawn: each path that differs from HEAD, with the sha256 of its bytes ("" when absent). */
  checkoutAtSpawn?: Record<string, string>;
  /** Paths its workspace had changed from its base when it asked the plan gate's question, and when the gate was discharged. */
  gateAsked?: string[];
  gateDischarged?: string[];
}

const isStringMap = (v: unknown): v is Record<string, string> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

export function readIntegrity(home: HomeLayout, worker: string): IntegrityRecord {
  const text = readWorkerText(home, worker, WORKER_FILES.integrity);
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {}; // torn or foreign: no record
  }
  const v = value as Record<string, unknown>;
  return {
    ...(isStringMap(v.checkoutAtSpawn) ? { checkoutAtSpawn: v.checkoutAtSpawn } : {}),
    ...(isStringList(v.gateAsked) ? { gateAsked: v.gateAsked } : {}),
    ...(isStringList(v.gateDischarged) ? { gateDischarged: v.gateDischarged } : {}),
  };
}

/** Merges `patch` into the record (a field once written is kept: the first snapshot is the one that counts). */
export function recordIntegrity(home: HomeLayout, worker: string, patch: IntegrityRecord): void {
  const now = readIntegrity(home, worker);
  const next: IntegrityRecord = { ...patch, ...now };
  writeWorkerFile(home, worker, WORKER_FILES.integrity, `${JSON.stringify(next)}\n`, { mkdir: false });
}

/** sha256 of each path's bytes under `root` (never through a final link), "" when it is absent or not a file. */
export function hashPaths(root: string, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    const read = readNoFollow(join(root, p));
    out[p] = read.ok === true ? createHash("sha256").update(read.bytes).digest("hex") : "";
  }
  return out;
}
