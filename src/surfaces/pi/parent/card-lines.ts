// The verdict card as lines for pi: a fixed head (who, which version, judgment, warnings, the last action's result)
// and a scrollable body — questions, evidence, per-item reports, plan coverage, what the worker says, decisions.

import { quotePath } from "../../../domain/text/quote-path.js";
import type { DiffFile } from "../../../domain/deliverables/diff-files.js";
import type { ReviewView } from "../../../engine/review/review-view.js";
import { safe, wrap, type Paint } from "./paint.js";
import { networkLine } from "../../../domain/workers/network-summary.js";
import { formatAnchor } from "../../../domain/review/comment-anchor.js";

export interface Banner {
  level: "info" | "error";
  /** One result per line (a promotion: its decisions, then each file): each is shown on its own line. */
  text: string;
}

const STATE_COLOR: Record<string, "success" | "error" | "warning" | "accent" | "muted"> = {
  ready: "success",
  failed: "error",
  needs_input: "warning",
  active: "accent",
  idle: "muted",
  starting: "muted",
  ended: "muted",
};

export function cardHead(v: ReviewView, paint: Paint, width: number, banner?: Banner): string[] {
  const c = v.card;
  const d = c.deliverable;
  const state = paint.fg(STATE_COLOR[c.state] ?? "muted", c.state.replace("_", " "));
  const out = [
    `${paint.bold(c.worker)} · ${safe(oneLine(c.detail.task))}`,
    `${state} · ${c.detail.kind}${c.detail.contained === null ? "" : c.detail.contained ? " · contained" : paint.fg("muted", " · not contained")}${c.detail.host !== null ? ` · on ${safe(c.detail.host)}` : ""}${c.detail.exited ? paint.fg("muted", " · not running") : ""}`,
  ];
  const network = c.detail.network && networkLine(c.detail.network);
  if (network) out.push(c.detail.network!.refused > 0 ? paint.fg("warning", safe(network)) : safe(network));
  if (d) {
    const handoff = c.detail.handoff ? ` · handoff ${safe(c.detail.handoff.sourceRef)}` : "";
    const judged = c.approved ? paint.fg("success", c.detail.judgment) : c.detail.judgment;
    out.push(`${paint.bold(`v${d.version}`)} · ${d.ref}${handoff} · ${judged}`);
  } else out.push(paint.fg("muted", c.detail.judgment));
  if (!v.isCurrent && v.current)
    out.push(
      paint.fg(
        "warning",
        `this is v${d?.version}; ${c.worker}'s current version is v${v.current.version}: no actions here`,
      ),
    );
  for (const w of c.warnings) out.push(...wrap(paint.fg("warning", `⚠ ${safe(w.text)}`), width));
  if (banner) {
    const colour = banner.level === "error" ? "error" : "success";
    banner.text
      .split("\n")
      .forEach((line, i) =>
        out.push(
          ...wrap(paint.fg(colour, `${i > 0 ? " " : banner.level === "error" ? "✗" : "✓"} ${safe(line)}`), width),
        ),
      );
  }
  return out;
}

export function cardBody(v: ReviewView, paint: Paint, width: number): string[] {
  const c = v.card;
  const d = c.detail.deliverable;
  const out: string[] = [];
  const heading = (text: string) => out.push("", paint.fg("accent", paint.bold(text)));
  /** Wraps text already made safe (it may carry colours); `para` makes worker text safe first. */
  const lines = (text: string, indent = "  ") =>
    out.push(...wrap(text, Math.max(10, width - indent.length)).map((l) => indent + l));
  const para = (text: string, indent = "  ") => lines(safe(text), indent);
  if (c.detail.questions.length > 0) {
    heading("Questions");
    for (const q of c.detail.questions) {
      para(`${q.id}: ${q.text}`);
      q.options.forEach((o, i) => para(`${i + 1}. ${o}${o === q.recommend ? " · recommended" : ""}`, "    "));
      if (q.risk) out.push(paint.fg("warning", `    ⚠ risk: ${safe(q.risk)}`));
    }
  }
  if (c.state === "failed" && c.detail.lastError) {
    heading("Failure");
    para(c.detail.lastError);
  }
  if (c.detail.findings.length > 0) {
    heading("Seen");
    for (const f of c.detail.findings) para(`${f.kind}: ${f.text}`);
  }
  if (d) {
    heading("Evidence");
    out.push(...evidenceFiles(v.files, d.changeSet?.hunks ?? 0, paint));
    if (c.detail.planCoverage)
      out.push(
        `  ${c.detail.planCoverage.startsWith("⚠") ? paint.fg("warning", safe(c.detail.planCoverage)) : safe(c.detail.planCoverage)}`,
      );
    if (c.planCoverage?.offPlan.length) para(`off-plan: ${c.planCoverage.offPlan.map(quotePath).join(", ")}`, "    ");
    if (c.planCoverage?.untouched.length)
      para(`planned but untouched: ${c.planCoverage.untouched.map(quotePath).join(", ")}`, "    ");
    if (d.evidence.length === 0) out.push(paint.fg("muted", "  no typed evidence given"));
    for (const kind of [...new Set(d.evidence.map((e) => e.kind))]) {
      for (const e of d.evidence.filter((x) => x.kind === kind))
        lines(`${paint.fg("accent", safe(kind))}: ${safe(e.text)}`);
    }
    if (d.items.length > 0) {
      heading("Per-item reports");
      for (const i of d.items) {
        out.push(
          `  ${paint.bold(safe(i.item))} ${paint.fg(i.outcome === "done" ? "success" : i.outcome === "blocked" ? "warning" : "muted", safe(i.outcome))}`,
        );
        para(i.body, "    ");
      }
    }
    heading(`Worker says (${d.outcome})`);
    para(d.summary);
    for (const r of d.recommendations) para(`→ ${r}`);
    const cm = c.comments;
    if (cm.previous.length > 0) {
      heading(`Comments on v${cm.previous[0]!.version} (sent with ${cm.previous[0]!.decision})`);
      for (const p of cm.previous) {
        const where =
          p.mapped.status === "current"
            ? paint.fg("muted", `still at ${formatAnchor(p.mapped.anchor)}`)
            : paint.fg("warning", `outdated: ${p.mapped.reason}`);
        lines(`${paint.bold(p.id)} ${safe(formatAnchor(p.anchor))} · ${where}`);
        para(p.text, "    ");
        if (p.addressed !== null) lines(paint.fg("success", `↳ ${c.worker}: ${safe(p.addressed)}`), "    ");
      }
    }
    if (cm.drafts.length > 0) {
      heading(`Draft comments (${cm.drafts.length}; r sends them)`);
      for (const dr of cm.drafts) {
        lines(`${paint.bold(dr.id)} ${safe(formatAnchor(dr.anchor))}`);
        para(dr.text, "    ");
      }
    }
    heading("Full text");
    para(d.body);
  } else if (c.detail.invalid) {
    heading("Deliverable");
    para(c.detail.invalid);
  }
  if (v.history.length > 0) {
    heading("Decisions on this version");
    for (const h of v.history)
      para(
        `${h.at.replace("T", " ").slice(0, 19)}  ${h.id} ${h.verb} · ${h.actor}${h.option ? ` · ${h.option}` : ""}${h.note ? ` · ${h.note}` : ""}`,
      );
  }
  return out.length > 0 && out[0] === "" ? out.slice(1) : out;
}

/** `3 files · +12 −4 · 5 hunks` and one line per file, renames, modes and binaries named as such. */
export function evidenceFiles(files: readonly DiffFile[], hunks: number, paint: Paint): string[] {
  if (files.length === 0) return [paint.fg("muted", "  no file changes")];
  const add = files.reduce((n, f) => n + f.additions, 0);
  const del = files.reduce((n, f) => n + f.deletions, 0);
  const out = [
    `  ${files.length} file${files.length === 1 ? "" : "s"} · ${paint.fg("toolDiffAdded", `+${add}`)} ${paint.fg("toolDiffRemoved", `−${del}`)} · ${hunks} hunk${hunks === 1 ? "" : "s"}`,
  ];
  for (const f of files) out.push(`    ${fileStat(f, paint)} ${safe(filePath(f))}${fileTags(f)}`);
  return out;
}

export function fileStat(f: DiffFile, paint: Paint): string {
  if (f.binary) return paint.fg("muted", "binary".padEnd(11));
  const add = `+${f.additions}`;
  const del = `−${f.deletions}`;
  return `${paint.fg("toolDiffAdded", add)} ${paint.fg("toolDiffRemoved", del)}${" ".repeat(Math.max(1, 10 - add.length - del.length))}`;
}

export function filePath(f: DiffFile): string {
  return f.status === "renamed" || f.status === "copied"
    ? `${quotePath(f.oldPath)} → ${quotePath(f.path)}`
    : quotePath(f.path);
}

/** ` (added)`, ` (renamed, mode 100644 → 100755)`: what the +/− counts alone do not say. */
export function fileTags(f: DiffFile): string {
  const tags: string[] = [];
  if (f.status !== "modified") tags.push(f.status);
  if (f.modeChanged) tags.push(`mode ${f.mode.old ?? "?"} → ${f.mode.new ?? "?"}`);
  if (f.frozenAsBinary) tags.push("⚠ frozen as binary, shown decoded");
  return tags.length > 0 ? ` (${tags.join(", ")})` : "";
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
