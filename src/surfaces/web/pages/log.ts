// The decision log: counts per verb in the window, decision debt (workers pruned with an unjudged version), and the
// recent decision rows with their actors, each linking to the exact version it judged.

import type { DecisionLog } from "../../../engine/review/decision-log.js";
import { html, type Html } from "../html.js";
import { cardPath } from "./card.js";

export function renderLog(log: DecisionLog): Html {
  const total = Object.values(log.counts).reduce((a, b) => a + b, 0);
  return html`<h1>Decisions <span class="count">${total}</span></h1><form class="since" method="get" action="/log"><label>window <input name="since" value="${log.window}" size="5"></label> <button type="submit">show</button></form><p class="counts">${
    total === 0
      ? "no decisions in this window"
      : Object.entries(log.counts).map(([v, n]) => html`<span class="verb v-${v}">${v} ${n}</span> `)
  }</p><h2>Decision debt <span class="count">${log.debt.length}</span></h2>${
    log.debt.length === 0
      ? html`<p class="none">no worker was pruned with an unjudged version</p>`
      : html`<ul class="debt">${log.debt.map((d) => html`<li>${d.at} <span class="wid">${d.worker}</span> ${d.deliverableRef ?? "(no deliverable)"} (${d.state ?? "?"})</li>`)}</ul>`
  }<h2>Recent</h2><div class="table-wrap"><table class="log"><thead><tr><th>at</th><th>id</th><th>verb</th><th>worker</th><th>version</th><th>what</th><th>actor</th></tr></thead><tbody>${log.decisions.map(
    (d) =>
      html`<tr><td class="at">${d.at.replace("T", " ").slice(0, 19)}</td><td><code>${d.id}</code></td><td><span class="verb v-${d.verb}">${d.verb}</span></td><td><span class="wid">${d.worker}</span></td><td>${d.deliverable ? html`<a href="${cardPath(d.worker, d.deliverable.version)}">v${d.deliverable.version}</a>` : ""}</td><td>${d.option ?? d.note ?? ""}${d.risk ? html` <span class="risk">⚠ ${d.risk}</span>` : ""}</td><td>${d.actor}</td></tr>`,
  )}</tbody></table></div>`;
}
