// A best-of group's page: its candidates side by side (who, state, the exact version, files and +/−, tests, spend,
// plan coverage, files only it touched, overlap) with a Choose button bound to that exact version. All text escaped.

import { formatCost } from "../../../domain/workers/spend.js";
import type { ComparedCandidate, Comparison } from "../../../engine/groups/compare.js";
import type { GroupSummary } from "../../../engine/groups/listing.js";
import { html, type Html } from "../html.js";
import { cardPath } from "./card.js";

const groupPath = (group: string): string => `/group/${group}`;

export function renderGroup(c: Comparison): Html {
  const open = c.chosen === null;
  return html`<h1>${c.group} <span class="count">best of ${c.candidates.length}</span></h1><p class="task">${c.task}</p><p class="hint">spend ${formatCost(c.spend)}${c.budgetUsd !== null ? ` of a $${c.budgetUsd.toFixed(2)} budget` : ""}${c.chosen ? html` · chosen <a href="${cardPath(c.chosen.ref.split(":")[1]!, Number(c.chosen.ref.split(":")[2]))}">${c.chosen.ref}</a> (${c.chosen.decision})` : ""}</p>${
    open
      ? html`<p class="hint">Choose approves that exact version, records the others as not chosen and stops them; their versions stay promotable. <label>reason <input id="choose-reason" type="text" maxlength="500" placeholder="why the others were not chosen (optional)"></label></p>`
      : ""
  }<div class="compare">${c.candidates.map((k) => candidate(k, open))}</div><h2>Overlap</h2>${
    c.overlaps.length === 0
      ? html`<p class="empty">No two candidates changed the same file.</p>`
      : html`<ul class="overlap">${c.overlaps.map((o) => html`<li><span class="wid">${o.a}</span> + <span class="wid">${o.b}</span>: ${o.files.join(", ")}</li>`)}</ul>`
  }`;
}

function candidate(k: ComparedCandidate, open: boolean): Html {
  const state = k.working ? "still working" : k.state;
  return html`<section class="candidate" data-worker="${k.worker}"><h2><a href="${cardPath(k.worker, k.version ?? undefined)}"><span class="wid">${k.worker}</span></a> <span class="pill state-${k.working ? "active" : k.state}">${state}</span>${k.judgment === "chosen" || k.judgment === "not-chosen" || k.judgment === "approved" ? html` <span class="pill judgment">${k.judgment}</span>` : ""}</h2><p class="who">${k.agent} · ${k.model ?? "(agent's default model)"}</p>${
    k.ref === null
      ? html`<p class="empty">No version yet.</p>`
      : html`<p class="ref"><a href="${cardPath(k.worker, k.version!)}">${k.ref}</a></p>${k.invalid ? html`<p class="warn">⚠ ${k.invalid}</p>` : ""}<p class="summary">${k.outcome}: ${k.summary ?? ""}</p><p class="size">${k.files.length} file${k.files.length === 1 ? "" : "s"} <span class="add">+${k.additions}</span> <span class="del">−${k.deletions}</span> · ${k.hunks} hunk${k.hunks === 1 ? "" : "s"}</p><ul class="files">${k.files.map((f) => html`<li${k.onlyHere.includes(f.path) ? html` class="only"` : ""}>${f.path} <span class="add">+${f.additions}</span> <span class="del">−${f.deletions}</span>${k.onlyHere.includes(f.path) ? html` <span class="pill">only here</span>` : ""}</li>`)}</ul><p class="tests">tests: ${k.tests.length === 0 ? "none given" : k.tests.join("; ")} · evidence ${k.evidence}</p>`
  }<p class="spend">spend ${k.spend ? formatCost(k.spend) : "unknown"}</p>${k.planCoverage ? html`<p class="coverage">plan: ${k.planCoverage}</p>` : ""}${
    open && k.ref !== null && !k.invalid
      ? html`<button type="button" class="act choose" data-verb="choose" data-worker="${k.worker}" data-version="${k.version}">Choose ${k.ref}</button>`
      : ""
  }</section>`;
}

/** The groups of this project still waiting for a choice, linked from the queue. */
export function renderGroupLinks(groups: readonly GroupSummary[]): Html {
  if (groups.length === 0) return html``;
  return html`<section class="groups"><h2>Best-of groups</h2><ul>${groups.map(
    (g) =>
      html`<li><a href="${groupPath(g.group)}"><span class="wid">${g.group}</span> <span class="task">${g.task}</span> <span class="pill">${g.workers.length} candidates</span>${g.chosenRef ? html` <span class="pill judgment">chose ${g.chosenRef}</span>` : ""}</a></li>`,
  )}</ul></section>`;
}
