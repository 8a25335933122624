// The review page's one script (served by the package, no build step): live updates over Server-Sent Events, actions
// bound to the version on screen, keys, panels, the diff view toggle, lazy files and expandable context.
// It never builds HTML from data: every fragment it inserts was rendered and escaped by the server.

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const body = document.body;
const pageKind = body.dataset.page;
const csrf = $('meta[name="docket-csrf"]')?.content ?? "";
let acting = false;

// ---- theme -------------------------------------------------------------------------------------------------
const savedTheme = localStorage.getItem("docket-theme");
if (savedTheme) document.documentElement.dataset.theme = savedTheme;
function toggleTheme() {
  const dark = document.documentElement.dataset.theme
    ? document.documentElement.dataset.theme === "dark"
    : matchMedia("(prefers-color-scheme: dark)").matches;
  document.documentElement.dataset.theme = dark ? "light" : "dark";
  localStorage.setItem("docket-theme", document.documentElement.dataset.theme);
}
$("#theme")?.addEventListener("click", toggleTheme);

// ---- messages ----------------------------------------------------------------------------------------------
function toast(lines, kind = "ok") {
  const t = $("#toast");
  t.replaceChildren(...lines.map((l) => Object.assign(document.createElement("div"), { textContent: l })));
  t.className = `toast show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.className = "toast"), kind === "error" ? 9000 : 4000);
}
function banner(text) {
  const b = $("#banner");
  b.textContent = text;
  b.hidden = false;
}

// ---- server calls ------------------------------------------------------------------------------------------
async function fragment(url) {
  const r = await fetch(url, { headers: { "x-docket-fragment": "1" }, credentials: "same-origin" });
  return { ok: r.ok, html: await r.text() };
}
async function post(payload) {
  const r = await fetch("/act", {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-docket-csrf": csrf },
    body: JSON.stringify(payload),
  });
  try {
    return await r.json();
  } catch {
    return { error: { message: `the server answered ${r.status}` } };
  }
}
const num = (v) => (v === undefined || v === "" ? null : Number(v));

/** The binding of every action: the worker, the version and the newest decision this card was rendered with. */
function bound(extra) {
  return {
    worker: body.dataset.worker,
    version: num(body.dataset.version),
    lastDecision: body.dataset.lastDecision || null,
    ...extra,
  };
}

async function perform(payload) {
  if (acting) return;
  acting = true;
  $$("button.act, .panel button").forEach((b) => (b.disabled = true));
  const r = await post(payload);
  if (r.ok) {
    toast(r.lines);
    setTimeout(() => location.reload(), 700);
    return;
  }
  if (r.stale) {
    banner(`${r.error.message} — reloading the card.`);
    setTimeout(() => location.reload(), 1500);
    return;
  }
  toast([r.error?.message ?? "refused", r.error?.hint].filter(Boolean), "error");
  acting = false;
  $$("button.act, .panel button").forEach((b) => (b.disabled = false));
  $$(".promote-apply").forEach((b) => (b.disabled = b.dataset.blocked === "1"));
}

// ---- panels and actions (card) -----------------------------------------------------------------------------
function closePanels() {
  $$(".panel").forEach((p) => (p.hidden = true));
  $("#help").hidden = true;
}
async function openPanel(name) {
  const panel = $(`.panel[data-panel="${name}"]`);
  if (!panel) return false;
  closePanels();
  panel.hidden = false;
  if (panel.dataset.url) {
    const f = await fragment(panel.dataset.url);
    panel.innerHTML = f.html;
    const apply = $(".promote-apply", panel);
    if (apply) {
      apply.dataset.blocked = apply.disabled ? "1" : "0";
      apply.focus();
    }
  } else $("textarea, input:not([type=hidden])", panel)?.focus();
  panel.scrollIntoView({ block: "nearest" });
  return true;
}

function clickAction(button) {
  const verb = button.dataset.verb;
  if (button.dataset.panel) return openPanel(button.dataset.panel);
  if (verb === "answer") return perform(bound({ verb, question: button.dataset.question, text: button.dataset.text }));
  if (verb === "combine") return perform(bound({ verb, peer: button.dataset.peer }));
  // A group page holds several candidates: the button names the exact version it shows.
  if (verb === "choose") {
    const note = $("#choose-reason")?.value.trim();
    const version = num(button.dataset.version);
    return perform({ verb, worker: button.dataset.worker, version, lastDecision: null, ...(note ? { note } : {}) });
  }
  return perform(bound({ verb }));
}

function submitPanel(form) {
  const name = form.dataset.panel;
  const field = (n) => form.elements.namedItem(n)?.value ?? "";
  if (name === "revise" || name === "reject") return perform(bound({ verb: name, note: field("note") }));
  if (name === "tell") return perform(bound({ verb: "tell", text: field("text") }));
  if (name === "discard") return perform(bound({ verb: "discard", confirm: true }));
  if (name.startsWith("use-")) return perform(bound({ verb: "use", mode: name.slice(4), task: field("task") }));
}

function applyPromotion(panel) {
  const apply = $(".promote-apply", panel);
  if (!apply || apply.disabled) return;
  const box = $(".promote-confirm", panel);
  if (apply.dataset.needsConfirm === "1" && !box?.checked) {
    toast(["Tick “Promote despite these warnings” first: the warnings above need your confirmation."], "error");
    box?.focus();
    return;
  }
  const trigger = $('button.act[data-verb="promote"]');
  perform(
    bound({ verb: "promote", withApproval: trigger?.dataset.withApproval === "1", confirm: Boolean(box?.checked) }),
  );
}

// ---- review comments (card) -------------------------------------------------------------------------------
// The forms are server-rendered <template>s; the script only clones them and fills in numbers and plain text.
function closeCommentForms() {
  $$(".cmt-new").forEach((f) => f.remove());
}
function openLineForm(cell) {
  const template = $("#cmt-line-form");
  if (!template) return;
  closeCommentForms();
  const row = cell.closest("tr");
  let after = row;
  while (after.nextElementSibling?.classList.contains("cmt-row")) after = after.nextElementSibling;
  const fresh = template.content.firstElementChild.cloneNode(true);
  fresh.firstElementChild.colSpan = row.closest("table").classList.contains("split") ? 4 : 3;
  const form = $("form", fresh);
  const line = Number(cell.dataset.line);
  Object.assign(form.dataset, {
    file: cell.closest(".file").dataset.file,
    side: cell.dataset.side,
    key: crypto.randomUUID(),
  });
  $(".cmt-where", form).textContent = `${cell.dataset.side} side · ${$(".path", cell.closest(".file")).textContent}`;
  form.elements.namedItem("start").value = String(line);
  form.elements.namedItem("end").value = String(line);
  after.after(fresh);
  form.elements.namedItem("text").focus();
}
function openFileForm(button) {
  const template = $("#cmt-file-form");
  if (!template) return;
  closeCommentForms();
  const file = button.closest(".file");
  const fresh = template.content.firstElementChild.cloneNode(true);
  const form = $("form", fresh);
  Object.assign(form.dataset, { file: file.dataset.file, side: "new", key: crypto.randomUUID() });
  $(".cmt-where", form).textContent = `whole file · ${$(".path", file).textContent}`;
  $(".file-body", file).prepend(fresh);
  form.elements.namedItem("text").focus();
}
function submitComment(form) {
  const text = form.elements.namedItem("text").value;
  if (!text.trim()) return;
  const start = form.elements.namedItem("start");
  const end = form.elements.namedItem("end");
  const anchor = {
    file: Number(form.dataset.file),
    side: form.dataset.side,
    start: start ? Number(start.value) : null,
    end: end ? Number(end.value) : null,
  };
  perform(bound({ verb: "comment", anchor, text, key: form.dataset.key }));
}
function toggleEdit(box, show) {
  const form = $(".cmt-edit", box);
  form.hidden = !show;
  if (show) form.elements.namedItem("text").focus();
}

document.addEventListener("click", (e) => {
  const cell = e.target.closest(".files td.n[data-line]");
  if (cell) return void openLineForm(cell);
  const t = e.target.closest("button, a[data-file]");
  if (!t) return;
  if (t.matches(".cmt-file-btn")) return void openFileForm(t);
  if (t.matches(".cmt-cancel"))
    return t.closest(".cmt-new") ? closeCommentForms() : toggleEdit(t.closest(".cmt"), false);
  if (t.matches(".cmt-edit-btn")) return toggleEdit(t.closest(".cmt"), true);
  if (t.matches(".cmt-del")) return void perform(bound({ verb: "comment-delete", comment: t.dataset.comment }));
  if (t.matches("button.act")) return void clickAction(t);
  if (t.matches(".panel .cancel, .promote-check .cancel")) return closePanels();
  if (t.matches(".promote-apply")) return applyPromotion(t.closest(".panel"));
  if (t.matches("#help-btn")) return void ($("#help").hidden = !$("#help").hidden);
  if (t.matches(".load-btn")) return void loadFile(t.closest(".load"));
  if (t.matches(".expand")) return void expand(t);
  if (t.matches(".fold")) return fold(t);
  if (t.matches("[data-view]")) return void setView(t.dataset.view);
  if (t.matches(".peek-btn")) return void peek(t);
  if (t.matches("a[data-file]")) {
    const load = $(`#file-${t.dataset.file} .load`);
    if (load) loadFile(load);
  }
});

document.addEventListener("submit", (e) => {
  const form = e.target;
  if (form.matches(".panel")) {
    e.preventDefault();
    submitPanel(form);
  } else if (form.matches(".cmt-form")) {
    e.preventDefault();
    submitComment(form);
  } else if (form.matches(".cmt-edit")) {
    e.preventDefault();
    const text = form.elements.namedItem("text").value;
    if (text.trim()) perform(bound({ verb: "comment-edit", comment: form.dataset.comment, text }));
  } else if (form.matches(".answer-form")) {
    e.preventDefault();
    const text = form.elements.namedItem("text").value;
    if (text.trim()) perform(bound({ verb: "answer", question: form.dataset.question, text }));
  }
});

// ---- diff --------------------------------------------------------------------------------------------------
const cardBase = () => `/card/${body.dataset.worker}/v/${body.dataset.version}`;
const currentView = () => $(".files")?.dataset.mode ?? "unified";

async function loadFile(holder) {
  if (!holder || holder.dataset.loading) return;
  holder.dataset.loading = "1";
  const f = await fragment(`${holder.dataset.url}?view=${currentView()}`);
  const wrap = document.createElement("div");
  wrap.innerHTML = f.html;
  holder.replaceWith(...wrap.childNodes);
}

async function expand(button) {
  const row = button.closest("tr");
  const f = await fragment(`${button.dataset.url}${button.dataset.url.includes("?") ? "&" : "?"}view=${currentView()}`);
  if (!f.ok) {
    row.firstElementChild.innerHTML = f.html;
    return;
  }
  row.insertAdjacentHTML("beforebegin", f.html);
  row.remove();
}

function fold(button) {
  const bodyEl = button.closest(".file").querySelector(".file-body");
  bodyEl.hidden = !bodyEl.hidden;
  button.setAttribute("aria-expanded", String(!bodyEl.hidden));
  button.textContent = bodyEl.hidden ? "▸" : "▾";
}

async function setView(mode) {
  const files = $("#diff-files");
  if (!files || currentView() === mode) return;
  // biome-ignore lint/suspicious/noDocumentCookie: one same-site preference cookie the server reads; no store needed
  document.cookie = `docket_view=${mode}; SameSite=Strict; Path=/; Max-Age=31536000`;
  const f = await fragment(`${cardBase()}/diff?view=${mode}`);
  if (!f.ok) return toast(["could not switch the diff view"], "error");
  files.innerHTML = f.html;
  $$(".seg [data-view]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.view === mode)));
  watchLazy();
}
const toggleView = () => setView(currentView() === "unified" ? "split" : "unified");

let lazyObserver;
function watchLazy() {
  lazyObserver?.disconnect();
  lazyObserver = new IntersectionObserver(
    (entries) => entries.filter((e) => e.isIntersecting).forEach((e) => loadFile(e.target)),
    { rootMargin: "600px" },
  );
  $$(".load.lazy").forEach((el) => lazyObserver.observe(el));
}
watchLazy();

// ---- fleet -------------------------------------------------------------------------------------------------
async function peek(button) {
  const row = button.closest("tr").nextElementSibling;
  if (!row.hidden) return void (row.hidden = true);
  const f = await fragment(button.dataset.url);
  $("pre", row).innerHTML = f.html;
  row.hidden = false;
}

// ---- queue selection ---------------------------------------------------------------------------------------
function queueItems() {
  return $$(".q-item");
}
function select(delta) {
  const items = queueItems();
  if (items.length === 0) return;
  const at = items.findIndex((i) => i.classList.contains("selected"));
  const next = items[Math.max(0, Math.min(items.length - 1, at === -1 ? 0 : at + delta))];
  items.forEach((i) => i.classList.toggle("selected", i === next));
  next.scrollIntoView({ block: "nearest" });
  sessionStorage.setItem("docket-selected", next.dataset.worker);
}
function restoreSelection() {
  const w = sessionStorage.getItem("docket-selected");
  const items = queueItems();
  const hit = items.find((i) => i.dataset.worker === w) ?? items[0];
  hit?.classList.add("selected");
}
if (pageKind === "queue") restoreSelection();

// ---- keys --------------------------------------------------------------------------------------------------
document.addEventListener("keydown", (e) => {
  const inField = e.target.closest("input:not([type=checkbox]), textarea, select");
  if (e.key === "Escape") return closePanels();
  if (inField) {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && e.target.form) {
      e.preventDefault();
      e.target.form.requestSubmit();
    }
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const promotePanel = $('.panel[data-panel="promote"]:not([hidden])');
  if (e.key === "Enter" && promotePanel && !e.target.closest("button")) {
    e.preventDefault();
    return applyPromotion(promotePanel);
  }
  const key = e.key;
  if (key === "?") return void ($("#help").hidden = !$("#help").hidden);
  if (key === "t") return toggleTheme();
  if (pageKind === "queue") {
    if (key === "j") return select(1);
    if (key === "k") return select(-1);
    if (key === "Enter" || key === "o") {
      const sel = $(".q-item.selected");
      if (sel) location.href = sel.dataset.href;
    }
    return;
  }
  if (pageKind !== "card") return;
  if (key === "j" && body.dataset.next) return void (location.href = body.dataset.next);
  if (key === "k" && body.dataset.prev) return void (location.href = body.dataset.prev);
  if (key === "d") return void toggleView();
  const button = $(`button.act[data-key="${key}"]`);
  if (button && !button.disabled) {
    e.preventDefault();
    clickAction(button);
  }
});

// ---- live --------------------------------------------------------------------------------------------------
let knownNeeds = num($("#badge")?.textContent);
function showNeeds(n) {
  const badge = $("#badge");
  if (!badge) return;
  if (knownNeeds !== null && n > knownNeeds) {
    badge.classList.remove("new");
    void badge.offsetWidth;
    badge.classList.add("new");
  }
  knownNeeds = n;
  badge.textContent = String(n);
  badge.classList.toggle("on", n > 0);
  document.title = document.title.replace(/^\(\d+\) /, "");
  if (n > 0) document.title = `(${n}) ${document.title}`;
}

let refreshing = false;
async function refreshMain() {
  if (refreshing || acting) return;
  refreshing = true;
  try {
    const r = await fetch(location.href, { credentials: "same-origin" });
    if (!r.ok) return;
    const doc = new DOMParser().parseFromString(await r.text(), "text/html");
    const fresh = doc.getElementById("main");
    if (fresh) $("#main").replaceChildren(...fresh.childNodes);
    if (pageKind === "queue") restoreSelection();
  } finally {
    refreshing = false;
  }
}

function cardChanged(p) {
  const w = p.workers[body.dataset.worker];
  if (!w) return `${body.dataset.worker} is gone`;
  if (num(body.dataset.current) !== w.v) return `${body.dataset.worker} published v${w.v}`;
  if ((body.dataset.lastDecision || null) !== w.d) return `decision ${w.d} landed on ${body.dataset.worker}`;
  if (num(body.dataset.questions) !== w.q) return `${body.dataset.worker}'s open questions changed`;
  return undefined;
}

// ---- browser notifications: a new ready version or a new question, when the human allowed them -----
const notifyOn = body.dataset.notify === "1" && "Notification" in window;
const notifyBtn = $("#notify-btn");
if (notifyOn && notifyBtn && Notification.permission === "default") {
  notifyBtn.hidden = false;
  notifyBtn.addEventListener("click", async () => {
    await Notification.requestPermission();
    notifyBtn.hidden = Notification.permission === "default";
  });
}
let seenWorkers = null;
function notifyNews(p) {
  const before = seenWorkers;
  seenWorkers = p.workers;
  if (!notifyOn || before === null || Notification.permission !== "granted") return;
  for (const [worker, w] of Object.entries(p.workers)) {
    const was = before[worker];
    const ready = w.s === "ready" && w.v !== null && (!was || was.v !== w.v);
    const asked = w.q > (was ? was.q : 0);
    if (!ready && !asked) continue;
    const title = ready ? `${worker} v${w.v} is ready for judgment` : `${worker} asks you a question`;
    const n = new Notification(title, { body: "docket", tag: `docket-${worker}-${ready ? `v${w.v}` : `q${w.q}`}` });
    n.addEventListener("click", () => {
      window.focus();
      location.href = ready ? `/card/${encodeURIComponent(worker)}/v/${w.v}` : `/card/${encodeURIComponent(worker)}`;
    });
  }
}

let lastQueue = null;
function onPulse(p) {
  showNeeds(p.needs);
  notifyNews(p);
  const queueKey = JSON.stringify(p.queue);
  if (pageKind === "card" && !acting) {
    const why = cardChanged(p);
    if (why) {
      banner(`${why} meanwhile — reloading the card.`);
      setTimeout(() => location.reload(), 1200);
    }
  } else if (pageKind === "queue" && lastQueue !== null && queueKey !== lastQueue) refreshMain();
  lastQueue = queueKey;
}

const live = $("#live");
if (window.EventSource && pageKind) {
  const es = new EventSource("/events");
  es.addEventListener("open", () => live?.classList.add("on"));
  es.addEventListener("error", () => live?.classList.remove("on"));
  es.addEventListener("pulse", (e) => onPulse(JSON.parse(e.data)));
  es.addEventListener("ledger", () => {
    if (pageKind === "fleet" && $$(".peek-row:not([hidden])").length === 0) refreshMain();
    if (pageKind === "log" || pageKind === "store") refreshMain();
  });
}
