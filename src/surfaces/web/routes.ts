// The review page's reads: pages (queue, card, fleet, log, store) and the fragments the page script loads (one file's
// diff, hidden context, the promotion check, a peek). Each parses its address, calls the engine once, renders.

import { actionTargetOf, parseSubject, versionRefOf } from "../../domain/deliverables/refs.js";
import { notFound, usageError } from "../../domain/errors.js";
import { normalizeWorkerId } from "../../domain/ids.js";
import type { EngineContext } from "../../engine/context.js";
import { decisionLog } from "../../engine/review/decision-log.js";
import { frozenContext } from "../../engine/review/diff-context.js";
import { everyFile, frozenReviewFiles, type ReviewFiles } from "../../engine/review/review-files.js";
import { previewPromotion } from "../../engine/review/promote-preview.js";
import { reviewPulse } from "../../engine/review/review-pulse.js";
import { reviewView } from "../../engine/review/review-view.js";
import { recordShown } from "../../engine/review/shown.js";
import { cardCommentsOf } from "../../engine/review/card-comments.js";
import { notesByFile } from "./pages/diff-comments.js";
import { verdictQueue } from "../../engine/review/verdict.js";
import { listStoredDeliverables } from "../../engine/store/catalog.js";
import { previewStored } from "../../engine/store/slots.js";
import { peekWorker } from "../../engine/talk/tell.js";
import { fleetBoard } from "../../engine/workers/fleet-board.js";
import { compareGroup } from "../../engine/groups/compare.js";
import { groupsOfWorkers, projectGroups } from "../../engine/groups/listing.js";
import { groupRows } from "../shared/group-lines.js";
import { renderGroup, renderGroupLinks } from "./pages/group.js";
import type { Assets } from "./assets.js";
import { escapeHtml, html, type Html } from "./html.js";
import type { LiveHub } from "./live.js";
import { cardPath, renderCard } from "./pages/card.js";
import { renderContextRows, renderDiffSection, renderFileRows, type DiffMode } from "./pages/diff.js";
import { renderFleet } from "./pages/fleet.js";
import { renderPage, type NavKey } from "./pages/layout.js";
import { renderLog } from "./pages/log.js";
import { renderPromotePreview } from "./pages/promote.js";
import { renderQueue, type QueueEntry } from "./pages/queue.js";
import { waitingSince } from "../../engine/workers/view-waiting.js";
import { renderStore, renderStoredPreview } from "./pages/store.js";

export interface RouteContext {
  ctx: EngineContext;
  assets: Assets;
  live: LiveHub;
  csrf: string;
  url: URL;
  /** From `?view=` or the `docket_view` cookie. */
  mode: DiffMode;
  /** This server's frozen diffs by exact ref, each file parsed when asked for (sidecars never change, so a few are kept for fragments). */
  diffs: Map<string, ReviewFiles>;
}

export interface Reply {
  status: number;
  type: "html" | "json";
  body: string;
}

type Params = Record<string, string>;
type Handler = (r: RouteContext, p: Params) => Reply | Promise<Reply>;

const ok = (body: string): Reply => ({ status: 200, type: "html", body });

function diffFilesOf(r: RouteContext, ref: string): ReviewFiles {
  let found = r.diffs.get(ref);
  if (!found) {
    found = frozenReviewFiles(r.ctx, ref);
    if (r.diffs.size >= 8) r.diffs.delete(r.diffs.keys().next().value!);
    r.diffs.set(ref, found);
  }
  return found;
}

function page(
  r: RouteContext,
  nav: NavKey,
  title: string,
  main: Html,
  data: Record<string, string | number | null> = {},
): Reply {
  const notify = r.ctx.config().notify.web ? 1 : 0; // the browser's notifications, when the human allows them
  return ok(
    renderPage({
      title,
      nav,
      csrf: r.csrf,
      assets: r.assets.urls,
      projectRoot: r.ctx.projectRoot(),
      needs: r.live.current().needs,
      data: { ...data, notify },
      main,
    }),
  );
}

function workerOf(p: Params): string {
  const w = normalizeWorkerId(p.w ?? "");
  if (!w) throw notFound("no-such-page", `"${p.w}" is not a worker`);
  return w;
}

/** A card's subject in its address: a worker (`w3`) or a combined pair (`w2+w3`), as the queue links them. */
function subjectOfPath(p: Params): string {
  const s = parseSubject(p.w ?? "");
  if (!s) throw notFound("no-such-page", `"${p.w}" is not a worker or a combined pair`);
  return s.kind === "combined" ? s.key : s.worker;
}

/** The exact ref a card address names: a worker's version or a combined one. */
const refOf = (p: Params): string => versionRefOf(subjectOfPath(p), Number(p.v));

function intParam(url: URL, name: string): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  if (!/^\d{1,9}$/.test(v)) throw usageError("bad-parameter", `?${name} must be a whole number`);
  return Number(v);
}

function queuePage(r: RouteContext): Reply {
  const pulse = reviewPulse(r.ctx);
  const rank = new Map(pulse.queue.map((q) => [q.worker, q.rank]));
  const updated = new Map(pulse.workers.map((w) => [w.worker, w.updatedAt]));
  const entries: QueueEntry[] = verdictQueue(r.ctx).map((card) => {
    const at = rank.get(card.worker) ?? 2;
    return { card, rank: at, since: waitingSince(r.ctx, card, at, updated.get(card.worker) ?? "") };
  });
  const groups = renderGroupLinks(projectGroups(r.ctx, { open: true }));
  return page(r, "queue", "Queue", html`${renderQueue(entries, r.ctx.clock.nowMs())}${groups}`, {
    count: entries.length,
  });
}

function cardPage(r: RouteContext, p: Params): Reply {
  const subject = subjectOfPath(p);
  const view = reviewView(r.ctx, p.v ? refOf(p) : actionTargetOf(subject, null));
  recordShown(r.ctx, [view.card.deliverable && { worker: view.card.worker, ...view.card.deliverable }], "web");
  const queue = r.live.current().queue;
  const at = queue.findIndex((q) => q.worker === view.card.worker);
  const near = (i: number) => (i >= 0 && i < queue.length ? cardPath(queue[i]!.worker, queue[i]!.version) : null);
  return page(
    r,
    "card",
    `${view.card.worker}${view.card.deliverable ? ` v${view.card.deliverable.version}` : ""}`,
    renderCard(view, r.mode),
    {
      worker: view.card.worker,
      version: view.card.deliverable?.version ?? null,
      current: view.current?.version ?? null,
      "last-decision": view.lastDecision,
      questions: view.card.detail.questions.length,
      actionable: view.actions.length > 0 ? 1 : 0,
      prev: at === -1 ? null : near(at - 1),
      next: at === -1 ? near(0) : near(at + 1),
    },
  );
}

/** The comments shown inside a fragment of this version's diff (drafts editable only while it is current). */
function notesOf(r: RouteContext, ref: string, files: ReviewFiles) {
  const c = cardCommentsOf(r.ctx, ref);
  return {
    notes: notesByFile(c.comments, files.heads, { worker: c.worker, editable: c.isCurrent }),
    commentable: c.isCurrent,
  };
}

function fileFragment(r: RouteContext, p: Params): Reply {
  const ref = refOf(p);
  const files = diffFilesOf(r, ref);
  const f = files.file(Number(p.i));
  if (!f) throw notFound("no-such-file", `${ref} has no file #${p.i}`);
  return ok(
    renderFileRows(f, cardPath(subjectOfPath(p), Number(p.v)), r.mode, notesOf(r, ref, files).notes.get(f.index)),
  );
}

function diffFragment(r: RouteContext, p: Params): Reply {
  const ref = refOf(p);
  const files = diffFilesOf(r, ref);
  return ok(
    renderDiffSection({ files, base: cardPath(subjectOfPath(p), Number(p.v)), mode: r.mode, ...notesOf(r, ref, files) })
      .value,
  );
}

function contextFragment(r: RouteContext, p: Params): Reply {
  const ref = refOf(p);
  const files = diffFilesOf(r, ref);
  const input = { ref, file: Number(p.i), gap: Number(p.k), from: intParam(r.url, "from") };
  const c = frozenContext(r.ctx, input, everyFile(files));
  const next = (c.lines.at(-1)?.oldNo ?? 0) + 1;
  const url = `${cardPath(subjectOfPath(p), Number(p.v))}/context/${p.i}/${p.k}?from=${next}`;
  return ok(
    renderContextRows({
      path: files.heads[input.file]!.path,
      lines: c.lines,
      mode: r.mode,
      more: { url, rest: c.rest },
    }),
  );
}

function promoteFragment(r: RouteContext, p: Params): Reply {
  const subject = subjectOfPath(p);
  const combined = parseSubject(subject)?.kind === "combined";
  // A combined version is named by its exact ref (each is judged on its own); a worker by id, bound to the version shown.
  const preview = previewPromotion(r.ctx, {
    target: combined ? refOf(p) : subject,
    ...(combined ? {} : { expectVersion: Number(p.v) }),
    approve: r.url.searchParams.get("approve") === "1",
  });
  return ok(renderPromotePreview(preview, { withApproval: r.url.searchParams.get("approve") === "1" }).value);
}

function peekFragment(r: RouteContext, p: Params): Reply {
  const peek = peekWorker(r.ctx, workerOf(p), intParam(r.url, "lines") ?? 40);
  return ok(
    `${escapeHtml(peek.text)}\n<span class="peek-src">(${peek.source === "pane" ? "live pane" : "harvested pane tail"})</span>`,
  );
}

function storeView(r: RouteContext): Reply {
  const ref = r.url.searchParams.get("ref");
  if (!ref) throw usageError("bad-parameter", "?ref names the stored deliverable to show");
  const preview = previewStored(r.ctx, ref);
  return page(r, "store", preview.ref, renderStoredPreview(preview));
}

const W = "(?<w>w?[1-9][0-9]{0,9})";
/** A card's subject: a worker, or a combined pair as the queue links it (`w2+w3`). */
const S = "(?<w>w?[1-9][0-9]{0,9}(?:\\+w[1-9][0-9]{0,9})?)";
const V = "(?<v>[1-9][0-9]{0,9})";

export const READ_ROUTES: { pattern: RegExp; handler: Handler }[] = [
  { pattern: /^\/$/, handler: queuePage },
  { pattern: new RegExp(`^/card/${S}(?:/v/${V})?$`), handler: cardPage },
  { pattern: new RegExp(`^/card/${S}/v/${V}/diff$`), handler: diffFragment },
  { pattern: new RegExp(`^/card/${S}/v/${V}/file/(?<i>\\d{1,6})$`), handler: fileFragment },
  { pattern: new RegExp(`^/card/${S}/v/${V}/context/(?<i>\\d{1,6})/(?<k>\\d{1,6})$`), handler: contextFragment },
  { pattern: new RegExp(`^/card/${S}/v/${V}/promote$`), handler: promoteFragment },
  {
    pattern: /^\/fleet$/,
    handler: (r) =>
      page(
        r,
        "fleet",
        "Fleet",
        html`${renderFleet(
          groupRows(fleetBoard(r.ctx, { all: r.url.searchParams.get("all") === "1" }), groupsOfWorkers(r.ctx)),
          r.url.searchParams.get("all") === "1",
        )}${renderGroupLinks(projectGroups(r.ctx))}`,
      ),
  },
  { pattern: new RegExp(`^/fleet/${W}/peek$`), handler: peekFragment },
  {
    pattern: /^\/log$/,
    handler: (r) =>
      page(
        r,
        "log",
        "Log",
        renderLog(decisionLog(r.ctx, { since: r.url.searchParams.get("since") ?? undefined, limit: 100 })),
      ),
  },
  {
    pattern: /^\/group\/(?<g>b[1-9][0-9]{0,9})$/,
    // Displayed to the human: what `choose` on this page (or anywhere) is bound to.
    handler: (r, p) => page(r, "group", p.g!, renderGroup(compareGroup(r.ctx, p.g!, { surface: "web" }))),
  },
  { pattern: /^\/store$/, handler: (r) => page(r, "store", "Store", renderStore(listStoredDeliverables(r.ctx))) },
  { pattern: /^\/store\/view$/, handler: storeView },
];

/** Finds the read route for a path, with its named parameters. */
export function matchRead(path: string): { handler: Handler; params: Params } | undefined {
  for (const route of READ_ROUTES) {
    const m = route.pattern.exec(path);
    if (m) return { handler: route.handler, params: { ...(m.groups ?? {}) } };
  }
  return undefined;
}
