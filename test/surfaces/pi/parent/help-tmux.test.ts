// `/docket` in a real interactive pi speaks pi's syntax: help lists only the human's verbs as `/docket …`, a usage
// error is one `docket:` line naming `/docket help`, advice reads `/docket …`, and a promotion's result is one line each.

import { test } from "node:test";
import assert from "node:assert/strict";
import { decisionsForWorker } from "../../../../src/ledger/review/decisions.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../../support/review-fixture.js";
import { piScreen } from "../../../support/pi-screen.js";
import { waitFor } from "../../../support/wait.js";

test("/docket help lists the human's verbs in /docket form; errors and hints use /docket; promote's result is line by line", async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three, changed" }), "src/new.txt": "brand new\n" });
  const pi = piScreen(t, { cwd: g.project, vars: { DOCKET_HOME: g.home } });
  await pi.start();

  pi.submit("/docket help");
  const help = await pi.until("the help", (s) => s.includes("Doors and health: /docket web · /docket doctor"));
  assert.match(help, /Workers: \/docket spawn · \/docket respawn · \/docket ls/);
  assert.match(help, /Review: \/docket approve · \/docket reject · \/docket revise/);
  assert.doesNotMatch(
    help,
    /\/docket (worker|mcp)\b|worker-side protocol|Usage: docket|Options:/,
    "no worker verbs, no mcp, not the CLI's help",
  );

  pi.submit("/docket help peek");
  const peek = await pi.until("one verb's help", (s) => /Usage: \/docket peek \[options\] <worker>/.test(s));
  assert.match(peek, /--lines <n>/);

  pi.submit("/docket frobnicate");
  const unknown = await pi.until("the unknown command", (s) =>
    s.includes('docket: unknown command "frobnicate" — try /docket help'),
  );
  assert.doesNotMatch(unknown, /error: unknown command|\(run with --help for usage\)/);

  pi.submit("/docket show w99");
  await pi.until("a refusal's hint in /docket form", (s) =>
    s.includes("docket: no worker w99 (run `/docket ls --all` to see workers)"),
  );

  pi.submit(`/docket verdict ${w.worker}`);
  await pi.until(
    "the card",
    (s) => s.includes(`docket · verdict · ${w.worker} v1`) && s.includes("p approve + promote"),
  );
  pi.press("p");
  await pi.until("the promotion's confirmation", (s) =>
    s.includes(`Approve and promote worker-deliverable:${w.worker}:1 into`),
  );
  pi.press("Enter");
  await waitFor(
    "the promotion in the ledger",
    () => decisionsForWorker(g.ctx.db, w.worker).some((d) => d.verb === "promote") || undefined,
  );
  const [approval, promotion] = decisionsForWorker(g.ctx.db, w.worker);
  const card = await pi.until("the result on the card", (s) =>
    s.includes(`${promotion!.id} promote worker-deliverable:${w.worker}:1`),
  );
  const lines = card.split("\n").map((l) => l.split("│")[1] ?? l); // the card's own column, inside the overlay's border
  const first = lines.findIndex((l) => l.includes(`✓ ${approval!.id} approve worker-deliverable:${w.worker}:1`));
  assert.ok(first >= 0, card);
  assert.doesNotMatch(lines[first]!, / · /, "one result per line, not one run-on line");
  assert.match(lines[first + 1]!, new RegExp(`^ +${promotion!.id} promote worker-deliverable:${w.worker}:1 *$`));
  assert.match(
    lines.slice(first + 2, first + 4).join("\n"),
    /src\/app\.txt[\s\S]*src\/new\.txt/,
    "then each file on its own line",
  );
});
