// The loader hooks of module-log.ts (run on node's loader thread): refuse blocked specifiers, log loaded file URLs.

import { appendFileSync } from "node:fs";

let log = "";
let block: string[] = [];

export function initialize(data: { log: string; block: string[] }): void {
  log = data.log;
  block = data.block;
}

export async function resolve(
  specifier: string,
  context: unknown,
  next: (specifier: string, context: unknown) => Promise<unknown>,
): Promise<unknown> {
  if (block.includes(specifier)) throw new Error(`${specifier} is blocked in this process (DOCKET_MODULE_BLOCK)`);
  return next(specifier, context);
}

export async function load(
  url: string,
  context: unknown,
  next: (url: string, context: unknown) => Promise<unknown>,
): Promise<unknown> {
  if (log && url.startsWith("file:")) appendFileSync(log, `esm ${url}\n`);
  return next(url, context);
}
