// The card of one exact version: header, warnings, questions, notes, the actions bound to that version (with their
// panels), evidence, what the worker says, and the frozen diff. Older versions are shown without actions.

import { parseDeliverableRef } from "../../../domain/deliverables/refs.js";
import { destinationLine, networkLine, type NetworkSummary } from "../../../domain/workers/network-summary.js";
import { formatCost, formatSpend } from "../../../domain/workers/spend.js";
import type { CardAction } from "../../../domain/review/card-actions.js";
import type { ReviewView } from "../../../engine/review/review-view.js";
import { html, type Html } from "../html.js";
import { renderEvidence, renderHistory, renderWorkerSays } from "./card-evidence.js";
import { renderDiffSection, renderFileTree, type DiffMode } from "./diff.js";
import { commentTemplates, notesByFile, renderCommentsSection } from "./diff-comments.js";

/** The human may draft comments on this card: it shows the current version, which can be revised. */
const commentable = (v: ReviewView): boolean => v.isCurrent && v.actions.some((a) => a.verb === "revise");

export const cardPath = (worker: string, version?: number | null): string =>
  `/card/${worker}${version ? `/v/${version}` : ""}`;

/** A link for a source ref: a worker version's card, or the store's preview. */
export function refLink(ref: string): Html {
  const w = parseDeliverableRef(ref);
  const href = w ? cardPath(w.workerId, w.version) : `/store/view?ref=${encodeURIComponent(ref)}`;
  return html`<a href="${href}"><code>${ref}</code></a>`;
}

function header(v: ReviewView): Html {
  const c = v.card;
  const d = c.deliverable;
  return html`<div class="card-head"><h1><span class="wid">${c.worker}</span> <span class="task">${c.detail.task}</span></h1><p class="meta"><span class="pill state-${c.state}">${c.state}</span><span class="pill">${c.detail.kind}</span>${c.detail.contained === null ? "" : html`<span class="pill">${c.detail.contained ? "contained" : "not contained"}</span>`}${c.detail.host !== null ? html`<span class="pill host">on ${c.detail.host}</span>` : ""}${
    d ? html`<span class="pill ver">v${d.version}</span><code class="ref">${d.ref}</code>` : ""
  }<span class="judgment">${c.detail.judgment}</span>${c.detail.handoff ? html`<span class="handoff">handoff from ${refLink(c.detail.handoff.sourceRef)}</span>` : ""}${
    c.detail.exited ? html`<span class="pill off">not running</span>` : ""
  }${c.spend ? html`<span class="spend">${c.spend.version ? `this version: ${formatSpend(c.spend.version)}; ` : ""}worker so far: ${formatCost(c.spend.worker)}</span>` : ""}</p>${network(c.detail.network)}${!v.isCurrent && v.current ? html`<p class="older">This is v${d?.version}; ${c.worker}'s current version is v${v.current.version}. <a href="${cardPath(c.worker, v.current.version)}">Open v${v.current.version}</a> to judge it.</p>` : ""}</div>`;
}

/** The worker's network line and, when it asked for any, each destination (refused ones first to the eye). */
function network(n: NetworkSummary | null): Html {
  const line = n ? networkLine(n) : undefined;
  if (!n || !line) return html``;
  const list = n.destinations.map(
    (d) => html`<li class="${d.allowed ? "egress-allowed" : "egress-refused"}">${destinationLine(d)}</li>`,
  );
  return html`<div class="network"><p class="network-line">${line}</p>${list.length > 0 ? html`<ul class="egress">${list}</ul>` : ""}</div>`;
}

function warnings(v: ReviewView): Html {
  if (v.card.warnings.length === 0) return html``;
  return html`<ul class="warnings">${v.card.warnings.map((w) => html`<li class="w-${w.kind}"><span class="wk">${w.kind}</span> ${w.text}</li>`)}</ul>`;
}

function questions(v: ReviewView, canAnswer: boolean): Html {
  const qs = v.card.detail.questions;
  if (qs.length === 0) return html``;
  return html`<section class="questions"><h2>Questions</h2>${qs.map(
    (q) =>
      html`<div class="q" data-question="${q.id}"><p class="q-text"><code>${q.id}</code> ${q.text}${consultTag(q)}</p>${q.consult?.context ? html`<p class="q-context">context: ${q.consult.context}</p>` : ""}${q.risk ? html`<p class="risk">⚠ risk: ${q.risk}</p>` : ""}${
        canAnswer
          ? html`<div class="q-opts">${q.options.map((o, i) => html`<button type="button" class="act opt" data-verb="answer" data-question="${q.id}" data-text="${o}">${i + 1}. ${o}${o === q.recommend ? html` <span class="rec">recommended</span>` : ""}</button>`)}</div><form class="answer-form" data-question="${q.id}"><input name="text" autocomplete="off" placeholder="Your answer" aria-label="answer to ${q.id}"><button type="submit">Answer</button></form>`
          : html`<ol>${q.options.map((o) => html`<li>${o}</li>`)}</ol>`
      }</div>`,
  )}</section>`;
}

/** A consult's lane: with the parent agent, or escalated to the human and why. */
function consultTag(q: ReviewView["card"]["detail"]["questions"][number]): Html | string {
  if (!q.consult) return "";
  const lane =
    q.consult.audience === "parent-agent"
      ? "consult · with your pi session's model"
      : q.consult.escalation
        ? `consult · escalated: ${q.consult.escalation}`
        : "consult";
  return html` <span class="consult">${lane}</span>`;
}

/** The worker's notes: for the human only; forwarding one is a broadcast the human confirms. */
function notes(v: ReviewView): Html {
  const ns = v.card.detail.notes;
  if (ns.length === 0) return html``;
  return html`<section class="notes"><h2>Notes <span class="hint">for you; no model saw them</span></h2><ul>${ns.map(
    (n) =>
      html`<li data-note="${n.id}"><code>${n.id}</code> ${n.text}${n.suggested.length > 0 ? html` <span class="hint">suggested for ${n.suggested.join(", ")} · <code>docket broadcast --from ${n.id}</code></span>` : ""}</li>`,
  )}</ul></section>`;
}

const LABELS: Record<string, string> = {
  approve: "Approve",
  reject: "Reject…",
  revise: "Revise…",
  tell: "Tell…",
  discard: "Discard live changes…",
  save: "Save to store",
  respawn: "Respawn",
  answer: "Answer",
  combine: "Combine with",
};

function actionButton(a: CardAction, drafts: number): Html {
  if (a.verb === "answer") return html``;
  const label =
    a.verb === "revise" && drafts > 0
      ? `Request changes (${drafts} comment${drafts === 1 ? "" : "s"})…`
      : a.verb === "promote"
        ? a.withApproval
          ? "Approve & promote…"
          : "Promote…"
        : a.verb === "use"
          ? `Use → ${a.mode![0]!.toUpperCase()}${a.mode!.slice(1)}…`
          : a.verb === "combine"
            ? `Combine with ${a.peer}`
            : (LABELS[a.verb] ?? a.verb);
  const key = a.verb === "approve" ? "a" : a.verb === "revise" ? "r" : a.verb === "promote" ? "p" : undefined;
  const panel =
    a.verb === "approve" || a.verb === "save" || a.verb === "respawn" || a.verb === "combine"
      ? undefined
      : a.verb === "use"
        ? `use-${a.mode}`
        : a.verb;
  return html`<button type="button" class="act${a.verb === "approve" ? " primary" : a.verb === "discard" || a.verb === "reject" ? " danger" : ""}" data-verb="${a.verb}"${a.mode ? html` data-mode="${a.mode}"` : ""}${a.withApproval ? html` data-with-approval="1"` : ""}${a.peer ? html` data-peer="${a.peer}"` : ""}${panel ? html` data-panel="${panel}"` : ""}${key ? html` data-key="${key}"` : ""}>${label}${key ? html` <kbd>${key}</kbd>` : ""}</button>`;
}

function panels(v: ReviewView, base: string): Html {
  const w = v.card.worker;
  const verbs = new Set(v.actions.map((a) => (a.verb === "use" ? `use-${a.mode}` : a.verb)));
  const promote = v.actions.find((a) => a.verb === "promote");
  const out: Html[] = [];
  const form = (name: string, body: Html, submit: string, extra: Html | string = "") =>
    html`<form class="panel" data-panel="${name}" hidden>${body}<div class="panel-btns"><button type="submit" class="primary">${submit}</button> <button type="button" class="cancel">Cancel <kbd>Esc</kbd></button></div>${extra}</form>`;
  const drafts = v.card.comments.drafts.length;
  if (verbs.has("revise") && drafts > 0) {
    out.push(
      form(
        "revise",
        html`<label>Request changes: your ${drafts} draft comment${drafts === 1 ? "" : "s"} go to ${w} as one revision, with this note if you add one. Its next done becomes v${(v.current?.version ?? 0) + 1}.<textarea name="note" rows="4"></textarea></label>`,
        "Request changes (Ctrl+Enter)",
      ),
    );
  } else if (verbs.has("revise"))
    out.push(
      form(
        "revise",
        html`<label>What should ${w} change? Its next done becomes v${(v.current?.version ?? 0) + 1}.<textarea name="note" required rows="4"></textarea></label>`,
        "Send revision (Ctrl+Enter)",
      ),
    );
  if (verbs.has("reject"))
    out.push(
      form(
        "reject",
        html`<label>Why (optional; ${w} is not told)<textarea name="note" rows="3"></textarea></label>`,
        "Reject this version",
      ),
    );
  if (verbs.has("tell"))
    out.push(
      form(
        "tell",
        html`<label>Message to ${w} (through its inbox)<textarea name="text" required rows="3"></textarea></label>`,
        "Send",
      ),
    );
  if (verbs.has("discard"))
    out.push(
      form(
        "discard",
        html`<p>Drop ${w}'s live changes and reset its workspace to its base? The frozen versions stay. This cannot be undone.</p><input type="hidden" name="confirm" value="1">`,
        "Discard live changes",
      ),
    );
  if (verbs.has("use-parent"))
    out.push(
      form(
        "use-parent",
        html`<p>Queue the exact body of ${v.card.deliverable?.ref} as a chip for your pi session's next prompt?</p>`,
        "Use → Parent",
      ),
    );
  for (const mode of ["worker", "implement"] as const) {
    if (verbs.has(`use-${mode}`)) {
      out.push(
        form(
          `use-${mode}`,
          html`<label>${mode === "implement" ? "Task for the implementer (empty: the plan's goal)" : "Task for the new worker (empty: work from the source)"}<input name="task" autocomplete="off"></label><p>Starts exactly one fresh worker with ${v.card.deliverable?.ref} as its reviewed input.</p>`,
          mode === "implement" ? "Start the implementer" : "Start the worker",
        ),
      );
    }
  }
  if (promote)
    out.push(
      html`<div class="panel promote-panel" data-panel="promote" data-url="${base}/promote${promote.withApproval ? "?approve=1" : ""}" hidden><p class="loading">Checking the patch against your checkout…</p></div>`,
    );
  return html`${out}`;
}

function actions(v: ReviewView, base: string): Html {
  if (v.actions.length === 0) return html``;
  const buttons = v.actions.filter((a) => a.verb !== "answer");
  return html`<section class="actions" id="actions" aria-label="actions on this version">${buttons.length > 0 ? html`<div class="btns">${buttons.map((a) => actionButton(a, v.card.comments.drafts.length))}</div>` : ""}${panels(v, base)}<details class="cli"><summary>Same on the command line</summary><ul>${v.actions.map((a) => html`<li><code>${a.cli}</code></li>`)}</ul></details></section>`;
}

export function renderDiff(v: ReviewView, base: string, mode: DiffMode): Html {
  const cs = v.card.detail.deliverable?.changeSet;
  if (!cs || v.diff.heads.length === 0) return html``;
  return html`<section class="diff-sec" id="diff"><div class="diff-bar"><h2>Frozen diff</h2><span class="stat-line">${cs.files.length} file${cs.files.length === 1 ? "" : "s"} · ${cs.hunks} hunk${cs.hunks === 1 ? "" : "s"}</span><div class="seg" role="group" aria-label="diff view"><button type="button" data-view="unified" aria-pressed="${mode === "unified"}">Unified</button><button type="button" data-view="split" aria-pressed="${mode === "split"}">Side by side</button></div><span class="hint"><kbd>d</kbd> toggles</span></div><div class="diff-layout">${renderFileTree(v.diff.heads)}<div id="diff-files">${renderDiffSection({ files: v.diff, base, mode, notes: notesByFile(v.card.comments, v.diff.heads, { worker: v.card.worker, editable: commentable(v) }), commentable: commentable(v) })}</div></div>${commentable(v) ? commentTemplates() : ""}</section>`;
}

export function renderCard(v: ReviewView, mode: DiffMode): Html {
  const d = v.card.detail.deliverable;
  const base = cardPath(v.card.worker, v.card.deliverable?.version);
  return html`${header(v)}${warnings(v)}${questions(v, v.isCurrent)}${notes(v)}${
    v.card.state === "failed" && v.card.detail.lastError
      ? html`<section class="failure"><h2>Failure</h2><pre>${v.card.detail.lastError}</pre></section>`
      : ""
  }${
    v.card.detail.findings.length > 0
      ? html`<section class="findings"><h2>Seen</h2>${v.card.detail.findings.map((f) => html`<p class="finding finding-${f.kind}"><b>${f.kind}</b> ${f.text}</p>`)}</section>`
      : ""
  }${actions(v, base)}${renderCommentsSection(v.card.comments, { worker: v.card.worker })}${d ? html`${renderEvidence(d, { line: v.card.detail.planCoverage, data: v.card.planCoverage })}${renderWorkerSays(d)}` : v.card.detail.invalid ? html`<p class="invalid">${v.card.detail.invalid}</p>` : ""}${renderDiff(v, base, mode)}${renderHistory(v.history)}`;
}
