// The page's own files (script, stylesheet, icon), shipped in the package under src/surfaces/web/assets and served
// from memory: read once at start, addressed with a content hash, never fetched from anywhere else (no CDN).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** `dist/src/surfaces/web` → the package's `src/surfaces/web/assets`. */
export const assetDir = (): string =>
  resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "src", "surfaces", "web", "assets");

const TYPES: Record<string, string> = {
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
  "icon.svg": "image/svg+xml",
};

export interface AssetUrls {
  js: string;
  css: string;
  icon: string;
}

export interface Assets {
  urls: AssetUrls;
  /** The file named in a `/assets/<name>` path, or undefined. */
  get(name: string): { type: string; body: Buffer } | undefined;
}

export function loadAssets(dir = assetDir()): Assets {
  const files = new Map<string, { type: string; body: Buffer }>();
  const hashes: Record<string, string> = {};
  for (const [name, type] of Object.entries(TYPES)) {
    const body = readFileSync(resolve(dir, name));
    files.set(name, { type, body });
    hashes[name] = createHash("sha256").update(body).digest("hex").slice(0, 12);
  }
  const url = (name: string) => `/assets/${name}?v=${hashes[name]}`;
  return { urls: { js: url("app.js"), css: url("app.css"), icon: url("icon.svg") }, get: (name) => files.get(name) };
}
