// The fleet: every worker of this project (or all, with ?all=1) with state, liveness, the host it runs on, task, age, cost so far, current
// version, open questions, items, `base moved`, and a peek at the last lines of its pane (zero model context, like `docket peek`).

import type { FleetEntry } from "../../../engine/workers/fleet-board.js";
import { formatSpend, formatWorkerCost } from "../../../domain/workers/spend.js";
import { html, type Html } from "../html.js";
import { cardPath } from "./card.js";

export function renderFleet(rows: readonly FleetEntry[], all: boolean): Html {
  const toggle = all
    ? html`<a href="/fleet">only unsettled workers of this project</a>`
    : html`<a href="/fleet?all=1">all workers, settled ones too</a>`;
  if (rows.length === 0)
    return html`<h1>Fleet</h1><p class="empty">No workers${all ? "" : " need attention in this project"}.</p><p>${toggle}</p>`;
  return html`<h1>Fleet <span class="count">${rows.length}</span></h1><p class="hint">${toggle}</p><div class="table-wrap"><table class="fleet"><thead><tr><th>worker</th><th>state</th><th>live</th><th>kind</th><th>task</th><th>age</th><th>cost</th><th>version</th><th>questions</th><th>items</th><th></th></tr></thead><tbody>${rows.map(
    (r) =>
      html`<tr data-worker="${r.worker}"><td><span class="wid">${r.worker}</span> <span class="gen">g${r.generation}</span></td><td><span class="pill state-${r.state}">${r.state}</span>${r.reason ? html`<div class="reason">${r.reason}</div>` : ""}${r.baseMoved ? html` <span class="base-moved" title="promotions landed files it works on since it began">${r.baseMoved}</span>` : ""}</td><td class="live"><span class="live-${r.liveness}">${r.liveness}</span></td><td class="kind">${r.kind}${r.contained ? html` <span class="contained" title="runs inside Docket's sandbox">contained</span>` : ""}${r.host !== undefined ? html` <span class="host" title="runs on host ${r.host} over ssh${r.hostReachable === false ? "; unreachable now" : ""}">on ${r.host}${r.hostReachable === false ? " (unreachable)" : ""}</span>` : ""}</td><td class="task">${r.task}</td><td class="age" data-label="age">${r.age}</td><td class="cost" data-label="cost"${r.spend ? html` title="${formatSpend(r.spend)}"` : ""}>${formatWorkerCost(r.spend)}</td><td data-label="version">${r.version ? html`<a href="${cardPath(r.worker, r.version)}">v${r.version}</a>` : "—"}</td><td data-label="questions">${r.questions > 0 ? html`<a href="${cardPath(r.worker)}">${r.questions}</a>` : "0"}</td><td data-label="items">${r.items.length > 0 ? r.items.join(", ") : "—"}</td><td class="act"><button type="button" class="peek-btn" data-url="/fleet/${r.worker}/peek">peek</button></td></tr><tr class="peek-row" hidden><td colspan="11"><pre class="peek"></pre></td></tr>`,
  )}</tbody></table></div>`;
}
