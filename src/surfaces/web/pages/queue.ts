// The queue: what needs judgment, in `docket verdict` order and groups (questions, failures, ready), each entry with
// its age, worker, kind, task and version, linking to the card of that exact version.

import { formatAge } from "../../../domain/clock.js";
import { QUEUE_GROUPS, type QueueRank } from "../../../domain/review/queue-rank.js";
import type { VerdictCard } from "../../../engine/review/verdict.js";
import { html, type Html } from "../html.js";
import { cardPath } from "./card.js";

export interface QueueEntry {
  card: VerdictCard;
  rank: QueueRank;
  /** Since when it has waited for the human (engine/workers/view-waiting.ts), not the worker's last heartbeat. */
  since: string;
}

const GROUP_TITLE: Record<QueueRank, string> = { 0: "Questions", 1: "Failures", 2: "Ready for judgment" };

function entry(e: QueueEntry, nowMs: number): Html {
  const c = e.card;
  const v = c.deliverable?.version;
  const warn = c.warnings.length;
  return html`<li class="q-item" data-href="${cardPath(c.worker, v)}" data-worker="${c.worker}"><a href="${cardPath(c.worker, v)}"><span class="wid">${c.worker}</span><span class="pill">${c.detail.kind}</span><span class="task">${c.detail.task}</span>${v ? html`<span class="pill ver">v${v}</span>` : ""}${
    c.detail.questions.length > 0
      ? html`<span class="pill qn">${c.detail.questions.length} question${c.detail.questions.length === 1 ? "" : "s"}</span>`
      : ""
  }${warn > 0 ? html`<span class="pill warn">⚠ ${warn}</span>` : ""}<span class="age" title="waiting since ${e.since}">${formatAge(e.since, nowMs)}</span></a></li>`;
}

export function renderQueue(entries: readonly QueueEntry[], nowMs: number): Html {
  if (entries.length === 0) {
    return html`<h1>Queue</h1><p class="empty">Nothing needs judgment: no open questions, failures or unjudged ready versions in this project.</p><p class="hint">The fleet and the decision log are in the menu; this page updates by itself.</p>`;
  }
  const ranks = [0, 1, 2] as const;
  return html`<h1>Queue <span class="count">${entries.length}</span></h1><p class="hint"><kbd>j</kbd>/<kbd>k</kbd> to move, <kbd>Enter</kbd> to open.</p>${ranks.map(
    (r) => {
      const group = entries.filter((e) => e.rank === r);
      return group.length === 0
        ? ""
        : html`<section class="group g-${QUEUE_GROUPS[r]}"><h2>${GROUP_TITLE[r]}</h2><ol class="queue">${group.map((e) => entry(e, nowMs))}</ol></section>`;
    },
  )}`;
}
