// The promotion check shown before the click (or Enter) that applies: the files, `git apply --check` against the
// parent checkout now, and the warnings that need an explicit confirmation (parent moved, overlaps with other workers).

import { formatPatchProblems } from "../../../engine/review/apply-frozen.js";
import type { PromotionPreview } from "../../../engine/review/promote-preview.js";
import { html, type Html } from "../html.js";

export function renderPromotePreview(p: PromotionPreview, options: { withApproval: boolean }): Html {
  const check = p.check.ok
    ? html`<p class="check ok">✓ <code>git apply --check</code> passes against ${p.root}</p>`
    : html`<p class="check bad">✗ does not apply to ${p.root}: ${formatPatchProblems(p.check.problems)}</p>`;
  const warnings = p.warnings.filter((w) => w.kind !== "older-version");
  return html`<div class="promote-check"><p>${options.withApproval ? "Approve and promote" : "Promote"} <code>${p.ref}</code> into your working tree (not committed): ${p.files.length} file${p.files.length === 1 ? "" : "s"}</p><ul class="files">${p.files.map((f) => html`<li><code>${f}</code></li>`)}</ul>${check}${
    warnings.length > 0
      ? html`<ul class="warnings">${warnings.map((w) => html`<li class="w-${w.kind}"><span class="wk">${w.kind}</span> ${w.text}</li>`)}</ul>`
      : ""
  }${p.needsConfirmation ? html`<label class="confirm"><input type="checkbox" name="confirm" class="promote-confirm"> Promote despite these warnings</label>` : ""}<div class="panel-btns"><button type="button" class="primary promote-apply"${p.check.ok ? "" : html` disabled`}${p.needsConfirmation ? html` data-needs-confirm="1"` : ""}>Apply to my checkout <kbd>Enter</kbd></button> <button type="button" class="cancel">Cancel <kbd>Esc</kbd></button></div></div>`;
}
