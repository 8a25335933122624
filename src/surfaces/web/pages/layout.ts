// The page frame every view shares: head (CSP-friendly: one stylesheet, one module script, no inline code),
// navigation with the live "needs judgment" badge, the key help, and the region the page script updates.

import { html, type Html } from "../html.js";
import type { AssetUrls } from "../assets.js";

export type NavKey = "queue" | "fleet" | "log" | "store" | "card" | "group";

export interface PageInput {
  title: string;
  nav: NavKey;
  csrf: string;
  assets: AssetUrls;
  projectRoot: string;
  /** Workers needing judgment now (the badge). */
  needs: number;
  /** `data-*` attributes of <body> the page script reads (values escaped). */
  data?: Record<string, string | number | null>;
  main: Html;
}

const NAV: { key: NavKey; href: string; label: string }[] = [
  { key: "queue", href: "/", label: "Queue" },
  { key: "fleet", href: "/fleet", label: "Fleet" },
  { key: "log", href: "/log", label: "Log" },
  { key: "store", href: "/store", label: "Store" },
];

const KEYS: [string, string][] = [
  ["j / k", "next / previous in the queue"],
  ["Enter", "open the selected card (queue)"],
  ["a", "approve this version"],
  ["r", "revise: write a note to the worker"],
  ["p", "promote: check, then confirm to apply"],
  ["d", "toggle unified / side-by-side diff"],
  ["t", "light / dark"],
  ["?", "this help"],
  ["Esc", "close a panel"],
];

export function renderPage(p: PageInput): string {
  const data = Object.entries(p.data ?? {}).map(([k, v]) => html` data-${k}="${v ?? ""}"`);
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="docket-csrf" content="${p.csrf}"><meta name="color-scheme" content="light dark"><title>${p.needs > 0 ? `(${p.needs}) ` : ""}${p.title} · docket</title><link rel="icon" href="${p.assets.icon}"><link rel="stylesheet" href="${p.assets.css}"><script type="module" src="${p.assets.js}"></script></head><body data-page="${p.nav}"${data}>
<header class="top"><a class="brand" href="/">docket</a><nav class="nav">${NAV.map((n) => html`<a href="${n.href}"${n.key === p.nav ? html` aria-current="page"` : ""}>${n.label}${n.key === "queue" ? html` <span id="badge" class="badge${p.needs > 0 ? " on" : ""}">${p.needs}</span>` : ""}</a>`)}</nav><span class="project" title="${p.projectRoot}">${p.projectRoot.split("/").filter(Boolean).at(-1) ?? p.projectRoot}</span><span id="live" class="live" title="live updates">●</span><button id="notify-btn" type="button" title="let this page notify you when a worker needs you" hidden>🔔</button><button id="theme" type="button" title="light / dark (t)">◐</button><button id="help-btn" type="button" title="keys (?)">?</button></header>
<div id="banner" class="banner" role="alert" hidden></div>
<main id="main">${p.main}</main>
<div id="help" class="help" role="dialog" aria-label="keyboard" hidden><h2>Keys</h2><dl>${KEYS.map(([k, v]) => html`<dt><kbd>${k}</kbd></dt><dd>${v}</dd>`)}</dl><p>Every action is the same engine command the CLI runs, bound to the exact version on screen.</p></div>
<div id="toast" class="toast" role="status" aria-live="polite"></div>
</body></html>`.value
  }`;
}

/** A page-sized message (not signed in, not found, a refusal) without any script. */
export function renderMessage(title: string, lines: readonly string[]): string {
  return `<!doctype html>${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · docket</title></head><body><h1>${title}</h1>${lines.map((l) => html`<p>${l}</p>`)}</body></html>`.value}`;
}
