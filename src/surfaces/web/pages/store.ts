// The DeliverableStore: stored records from the ledger's index (newest first), records this build cannot load with
// their reason, and a read-only preview of one record (nothing is mounted; `docket load` does that).

import type { StoredListing } from "../../../engine/store/catalog.js";
import type { PreviewResult } from "../../../engine/store/slots.js";
import { html, type Html } from "../html.js";
import { renderMarkdown } from "../markdown.js";

const view = (ref: string) => `/store/view?ref=${encodeURIComponent(ref)}`;

export function renderStore(s: StoredListing): Html {
  return html`<h1>Store <span class="count">${s.deliverables.length}</span></h1>${
    s.deliverables.length === 0
      ? html`<p class="empty">No stored deliverables. <code>docket save --from w&lt;N&gt;</code> keeps an approved version here.</p>`
      : html`<div class="table-wrap"><table class="store"><thead><tr><th>ref</th><th>outcome</th><th>summary</th><th>saved</th></tr></thead><tbody>${s.deliverables.map(
          (d) =>
            html`<tr><td><a href="${view(d.ref)}"><code>${d.ref}</code></a></td><td><span class="pill oc-${d.outcome}">${d.outcome}</span></td><td>${d.summary}</td><td class="at">${d.savedAt.replace("T", " ").slice(0, 19)}</td></tr>`,
        )}</tbody></table></div>`
  }${s.unsupported.length === 0 ? "" : html`<h2>Cannot load <span class="count">${s.unsupported.length}</span></h2><ul class="unsupported">${s.unsupported.map((u) => html`<li><code>${u.path}</code>: ${u.reason}${u.detail ? ` (${u.detail})` : ""}</li>`)}</ul>`}`;
}

export function renderStoredPreview(p: PreviewResult): Html {
  const r = p.record;
  return html`<p><a href="/store">← Store</a></p><h1><code>${p.ref}</code></h1><p class="meta">${r ? html`<span class="pill oc-${r.outcome}">${r.outcome}</span> ` : ""}${p.kind}${p.slot ? html` · mounted as <code>${p.slot}</code>` : ""}</p>${
    r ? html`<p class="summary">${r.summary}</p>` : ""
  }<article class="md">${renderMarkdown(p.body)}</article>`;
}
