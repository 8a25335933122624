// `docket verdict` on a real terminal (a pane of a private tmux server): the numbered menu asks what an action needs
// and sends it through the same request and dispatcher as the review page and pi's card, bound to the card it printed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { wait } from "../../../src/engine/protocol/protocol.js";
import { reject } from "../../../src/engine/review/judge.js";
import { cliEnv, DOCKET_BIN } from "../../support/docket-cli.js";
import { appWith, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { tmuxServer, type TmuxServer } from "../../support/tmux.js";
import { waitFor } from "../../support/wait.js";

/** `docket verdict` in a pane: what the pane shows, and a way to type a line into it. */
function verdictPane(t: { after(fn: () => void): void }, env: NodeJS.ProcessEnv, cwd: string) {
  const server: TmuxServer = tmuxServer(t);
  const vars = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  // The pane stays after the command ends, so a failure shows what it printed.
  server.tmux("new-session", "-d", "-x", "200", "-y", "60", "-s", "menu", "-c", cwd, ...vars, "--", "sleep", "600");
  server.tmux("set-option", "-t", "menu", "remain-on-exit", "on");
  server.tmux("respawn-pane", "-k", "-t", "menu", "-c", cwd, ...vars, "--", process.execPath, DOCKET_BIN, "verdict");
  const screen = () => server.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "menu");
  const type = (line: string) => {
    server.tmux("send-keys", "-t", "menu", "-l", line);
    server.tmux("send-keys", "-t", "menu", "Enter");
  };
  /** The number the last menu on screen gives `choice`. */
  const numberOf = (choice: string): string => {
    const menus = screen().split("what now?");
    const n = new RegExp(`^\\s+(\\d+)\\) ${choice.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m").exec(
      menus[menus.length - 1]!,
    )?.[1];
    assert.ok(n, `no "${choice}" in the menu:\n${screen()}`);
    return n;
  };
  return { screen, type, numberOf };
}

test("the terminal menu answers a question by its option and sends a revision with its note, each bound to the card it printed", {
  timeout: 90_000,
}, async (t) => {
  const g = reviewGround(t);
  const asker = reviewWorker(t, g);
  const builder = reviewWorker(t, g);
  wait(g.ctx, asker, { question: "which database?", options: ["sqlite", "postgres"] });
  const v1 = publish(g, builder, { "src/app.txt": appWith({ 3: "three" }) });
  const pane = verdictPane(t, cliEnv({ DOCKET_HOME: g.home, HOME: g.home }), g.project);

  // Questions come first in the queue.
  await waitFor(
    "the question's card and its menu",
    () => pane.screen().includes(`${asker.worker}: what now?`) || undefined,
    30_000,
  );
  pane.type(pane.numberOf("answer"));
  await waitFor("the question's options", () => pane.screen().includes("something else") || undefined, 15_000);
  const options = pane.screen().split("which database?").pop()!;
  pane.type(/(\d+)\) sqlite/.exec(options)![1]!);

  await waitFor(
    "the ready version's card and its menu",
    () => pane.screen().includes(`${builder.worker}: what now?`) || undefined,
    30_000,
  );
  pane.type(pane.numberOf("revise"));
  await waitFor(
    "the revision's question",
    () => pane.screen().includes(`What should ${builder.worker} change in v1?`) || undefined,
    15_000,
  );
  pane.type("rename the third line");
  await waitFor("the revision recorded", () => /dc\d+ revise/.test(pane.screen()) || undefined, 15_000).catch((e) => {
    throw new Error(`${e.message}; the pane shows:\n${pane.screen()}`);
  });

  const answered = g.ctx.db.prepare("SELECT state, answer FROM questions WHERE worker = ?").get(asker.worker);
  assert.deepEqual({ ...(answered as object) }, { state: "answered", answer: "sqlite" });
  const decisions = g.ctx.db
    .prepare("SELECT verb, worker, deliverable_ref AS ref, note FROM decisions ORDER BY seq")
    .all() as { verb: string; worker: string; ref: string | null; note: string | null }[];
  assert.deepEqual(
    decisions.map((d) => [d.verb, d.worker, d.ref]),
    [
      ["answer", asker.worker, null],
      ["revise", builder.worker, v1.ref],
    ],
  );
  const sent = g.ctx.db
    .prepare("SELECT kind, body FROM messages WHERE worker = ? ORDER BY rowid")
    .all(builder.worker) as { kind: string; body: string }[];
  assert.ok(
    sent.some((m) => m.body.includes("rename the third line")),
    JSON.stringify(sent),
  );
});

test("a decision that lands after the menu printed its card refuses the menu's action: nothing is recorded for it", {
  timeout: 90_000,
}, async (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const pane = verdictPane(t, cliEnv({ DOCKET_HOME: g.home, HOME: g.home }), g.project);
  await waitFor("the card and its menu", () => pane.screen().includes(`${w.worker}: what now?`) || undefined, 30_000);
  // Someone else (another terminal, the review page) rejects the version while this menu waits.
  reject(g.ctx, { target: v1.ref, note: "not this one" });
  pane.type(pane.numberOf("approve"));
  await waitFor("the refusal", () => /docket: .*decision/.test(pane.screen()) || undefined, 15_000).catch((e) => {
    throw new Error(`${e.message}; the pane shows:\n${pane.screen()}`);
  });
  const verbs = g.ctx.db.prepare("SELECT verb FROM decisions ORDER BY seq").all() as { verb: string }[];
  assert.deepEqual(
    verbs.map((d) => d.verb),
    ["reject"],
    "the approve the menu offered before the reject is refused",
  );
});
