// The card's reading half: evidence first (change set, plan coverage, typed evidence, per-item reports), then what
// the worker says (summary, recommendations, the full body as Markdown), then the decisions on this version.

import type { WorkerDeliverable } from "../../../domain/deliverables/deliverable.js";
import type { PlanCoverage } from "../../../domain/plans/plan-coverage.js";
import type { Decision } from "../../../ledger/review/decisions.js";
import { html, type Html } from "../html.js";
import { renderMarkdown } from "../markdown.js";

function pathList(label: string, paths: readonly string[], cls: string): Html {
  return html`<div class="cov-row ${cls}"><dt>${label} <span class="count">${paths.length}</span></dt><dd>${paths.length === 0 ? html`<span class="none">none</span>` : html`<ul>${paths.map((p) => html`<li><code>${p}</code></li>`)}</ul>`}</dd></div>`;
}

export function renderCoverage(line: string | null, c: PlanCoverage | null): Html {
  if (!line) return html``;
  return html`<div class="coverage"><p class="cov-line">${line}</p>${
    c
      ? html`<dl>${pathList("planned", c.planned, "planned")}${pathList("touched", c.touched, "touched")}${pathList("untouched", c.untouched, "untouched")}${pathList("off-plan", c.offPlan, "off-plan")}</dl>`
      : ""
  }</div>`;
}

export function renderEvidence(
  d: WorkerDeliverable,
  coverage: { line: string | null; data: PlanCoverage | null },
): Html {
  const cs = d.changeSet;
  const adds = cs?.files.reduce((n, f) => n + f.additions, 0) ?? 0;
  const dels = cs?.files.reduce((n, f) => n + f.deletions, 0) ?? 0;
  const change =
    cs && cs.files.length > 0
      ? html`<p class="cs"><a href="#diff">${cs.files.length} file${cs.files.length === 1 ? "" : "s"}</a> · <span class="plus">+${adds}</span> <span class="minus">−${dels}</span> · ${cs.hunks} hunk${cs.hunks === 1 ? "" : "s"}</p>`
      : html`<p class="cs none">no file changes</p>`;
  const kinds = [...new Set(d.evidence.map((e) => e.kind))];
  const evidence =
    d.evidence.length === 0
      ? html`<p class="none">no typed evidence given</p>`
      : html`<ul class="ev">${kinds.map((k) => d.evidence.filter((e) => e.kind === k).map((e) => html`<li><span class="ek ek-${k}">${k}</span> <span class="et">${e.text}</span></li>`))}</ul>`;
  const items =
    d.items.length === 0
      ? html``
      : html`<h3>Per-item reports</h3><table class="items"><thead><tr><th>item</th><th>outcome</th><th>report</th></tr></thead><tbody>${d.items.map(
          (i) =>
            html`<tr><td><code>${i.item}</code></td><td><span class="oc oc-${i.outcome}">${i.outcome}</span></td><td class="md">${renderMarkdown(i.body)}</td></tr>`,
        )}</tbody></table>`;
  return html`<section class="evidence"><h2>Evidence</h2>${change}${renderCoverage(coverage.line, coverage.data)}${evidence}${items}</section>`;
}

/** A body longer than this starts folded, so the diff below it starts on the first screen. */
const OPEN_BODY_LINES = 12;
const OPEN_BODY_CHARS = 1200;

export function renderWorkerSays(d: WorkerDeliverable): Html {
  const lines = d.body.split("\n").length;
  const open = lines <= OPEN_BODY_LINES && d.body.length <= OPEN_BODY_CHARS;
  return html`<section class="says"><h2>Worker says <span class="pill oc-${d.outcome}">${d.outcome}</span></h2><p class="summary">${d.summary}</p>${
    d.recommendations.length > 0
      ? html`<ul class="recs">${d.recommendations.map((r) => html`<li>→ ${r}</li>`)}</ul>`
      : ""
  }<details class="body"${open ? " open" : ""}><summary>Full text${open ? "" : ` (${lines} lines)`}</summary><article class="md">${renderMarkdown(d.body)}</article></details></section>`;
}

export function renderHistory(history: readonly Decision[]): Html {
  if (history.length === 0) return html``;
  return html`<section class="history"><h2>Decisions on this version</h2><table class="log"><tbody>${history.map(
    (d) =>
      html`<tr><td class="at">${d.at.replace("T", " ").slice(0, 19)}</td><td><code>${d.id}</code></td><td><span class="verb v-${d.verb}">${d.verb}</span></td><td>${d.actor}</td><td>${d.option ?? d.note ?? ""}</td></tr>`,
  )}</tbody></table></section>`;
}
