// A real headless Chromium (Debian's `chromium`) driven by playwright-core: a fresh profile per test, no network
// beyond loopback, and a record of every side effect a hostile page could cause (dialogs, errors, foreign requests).

import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = process.env.DOCKET_CHROMIUM ?? "/usr/bin/chromium";

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A browser with a fresh user-data-dir (playwright passes it as --user-data-dir), closed when the test ends. */
export async function browser(
  t: { after(fn: () => void | Promise<void>): void },
  viewport = { width: 1280, height: 900 },
): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does`);
  // One cleanup, in order: the browser must be gone before its profile is removed (it writes there until it exits).
  const profile = mkdtempSync(join(tmpdir(), "docket-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport,
  });
  t.after(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
  return context;
}

export interface SideEffects {
  dialogs: string[];
  errors: string[];
  /** Requests to any origin but the page's own. */
  foreign: string[];
}

/** Watches a page for what injected script or markup would do; dialogs are dismissed after being recorded. */
export function watchSideEffects(page: Page, origin: string): SideEffects {
  const seen: SideEffects = { dialogs: [], errors: [], foreign: [] };
  page.on("dialog", (d) => {
    seen.dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
  page.on("pageerror", (e) => seen.errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") seen.errors.push(`console: ${m.text()}`);
  });
  page.on("request", (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith("data:")) seen.foreign.push(r.url());
  });
  return seen;
}

export interface ActiveMarkup {
  /** The src of every script on the page (the page's own is the only one it should have). */
  scripts: (string | null)[];
  /** Images and frames inside main. */
  embeds: number;
  /** Elements anywhere with an on* handler attribute. */
  handlers: number;
  /** Links whose protocol is javascript:. */
  jsLinks: number;
}

/** What in the page's DOM could run or load something: the count a hostile worker's text must never raise. */
export function activeMarkup(page: Page): Promise<ActiveMarkup> {
  return page.evaluate(() => ({
    scripts: [...document.scripts].map((s) => s.getAttribute("src")),
    embeds: document.querySelectorAll("main img, main iframe").length,
    handlers: [...document.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => a.name.startsWith("on")))
      .length,
    jsLinks: [...document.querySelectorAll("a")].filter((a) => a.protocol === "javascript:").length,
  }));
}

/** Screenshots land in `.shots/` at the repository root (git-ignored) so a person can look at what the tests saw. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  const dir = join(import.meta.dirname, "..", "..", "..", ".shots");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  return path;
}
