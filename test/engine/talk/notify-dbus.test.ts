// Notifications reach a real D-Bus notification service exactly once: each event once, a burst batched, nothing twice
// after restarts; a long-lived sender's notification carries a default action, and a click opens the card.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openEngine } from "../../../src/engine/open.js";
import { sendDueNotifications } from "../../../src/engine/talk/notify-dispatch.js";
import { fail, wait } from "../../../src/engine/protocol/protocol.js";
import { notificationService, sessionBus } from "../../support/dbus-notifications.js";
import { cliEnv, docketAsync, jsonOf } from "../../support/docket-cli.js";
import { notifyReceiver } from "../../support/notify-receiver.js";
import { groundEnv, publish, reviewGround, reviewWorker } from "../../support/review-fixture.js";
import { tmuxServer } from "../../support/tmux.js";
import { endsWithLine, fileOnce, waitFor } from "../../support/wait.js";

async function ground(t: { after(fn: () => unknown): void }) {
  const bus = await sessionBus(t);
  const service = await notificationService(t, bus);
  const g = reviewGround(t);
  writeFileSync(join(g.home, "config.json"), JSON.stringify({ notify: { desktop: true, batchSeconds: 0 } }));
  const env = cliEnv({ DOCKET_HOME: g.home, ...bus.env });
  // Any docket command is a sending process: it sends what is due before it exits. Run without blocking this process,
  // which is also the notification service that must answer.
  const sender = async () => jsonOf(await docketAsync({ env, cwd: g.project }, "attention", "--json"));
  return { ...g, bus, service, env, sender };
}

/** `docket web --detach` in `cwd`, stopped when the test ends: its pid and address. */
async function detachedWeb(
  t: { after(fn: () => void): void },
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ pid: number; url: string }> {
  const started = jsonOf(await docketAsync({ env, cwd }, "web", "--detach", "--json"));
  t.after(() => {
    try {
      process.kill(started.pid, "SIGTERM");
    } catch {
      // already stopped
    }
  });
  return started;
}

test("a question, a ready version and a failure each arrive once at the desktop service, and a rerun sends nothing", async (t) => {
  const g = await ground(t);
  const w1 = reviewWorker(t, g);
  const w2 = reviewWorker(t, g);
  wait(g.ctx, w1, { question: "which database?", options: ["sqlite", "postgres"] });
  await g.sender();
  assert.deepEqual(
    g.service.calls.map((c) => [c.appName, c.summary, c.body]),
    [["Docket", "Docket: w1 asks you a question", "which database?"]],
  );
  assert.deepEqual(
    g.service.calls[0]!.actions,
    [],
    "a short-lived command cannot wait for a click: no action is offered",
  );
  const v1 = publish(g, w1, { "src/app.txt": "changed\n" });
  await g.sender();
  fail(g.ctx, w2, { reason: "tests do not build" });
  await g.sender();
  await g.sender();
  assert.deepEqual(
    g.service.calls.map((c) => c.summary),
    ["Docket: w1 asks you a question", "Docket: w1 has a version ready for judgment", "Docket: w2 failed"],
  );
  assert.match(g.service.calls[1]!.body, new RegExp(`^${v1.ref}`));
  assert.equal(g.service.calls[2]!.body, "tests do not build");
});

test("a burst of five ready versions arrives as one batched message", async (t) => {
  const g = await ground(t);
  const workers = Array.from({ length: 5 }, () => reviewWorker(t, g));
  for (const w of workers) publish(g, w, { "src/app.txt": `by ${w.worker}\n` });
  await g.sender();
  assert.equal(g.service.calls.length, 1, JSON.stringify(g.service.calls));
  assert.equal(g.service.calls[0]!.summary, "Docket: 5 events (5 ready)");
  assert.deepEqual(
    g.service.calls[0]!.body.split("\n").map((l) => l.split(" ")[0]),
    ["w1", "w2", "w3", "w4", "w5"],
  );
});

test("after the sending process restarts, and with several senders at once, nothing is sent twice", async (t) => {
  const g = await ground(t);
  const w1 = reviewWorker(t, g);
  wait(g.ctx, w1, { question: "first?" });
  await g.sender();
  await g.sender(); // the next process: the claim in the ledger says it went out
  assert.equal(g.service.calls.length, 1);
  const w2 = reviewWorker(t, g);
  wait(g.ctx, w2, { question: "second?" });
  const runs = await Promise.all(
    Array.from({ length: 4 }, () => docketAsync({ env: g.env, cwd: g.project }, "attention", "--json")),
  );
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    g.service.calls.map((c) => c.body),
    ["first?", "second?"],
  );
  const row = g.ctx.db
    .prepare("SELECT sent_by FROM notifications WHERE kind = 'question' AND worker = ?")
    .get(w2.worker) as { sent_by: string };
  assert.match(row.sent_by, /^cli:\d+ · desktop sent: notify-send exited 0/);
});

test("notify.command receives one JSON line per event on its stdin, once", async (t) => {
  const g = reviewGround(t);
  const out = notifyReceiver(g.home, g.home);
  const env = cliEnv({ DOCKET_HOME: g.home });
  const w1 = reviewWorker(t, g);
  const w2 = reviewWorker(t, g);
  wait(g.ctx, w1, { question: "left or right?" });
  const v1 = publish(g, w2, { "src/app.txt": "changed\n" });
  jsonOf(await docketAsync({ env, cwd: g.project }, "attention", "--json"));
  jsonOf(await docketAsync({ env, cwd: g.project }, "attention", "--json"));
  const lines = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => [l.event, l.worker, l.ref, l.title, l.text, l.at]),
    [
      ["question", w1.worker, null, `${w1.worker} asks you a question`, "left or right?", "2026-03-01T10:00:00.000Z"],
      [
        "ready",
        w2.worker,
        v1.ref,
        `${w2.worker} has a version ready for judgment`,
        `${v1.ref} (completed): changed src/app.txt`,
        "2026-03-01T10:00:00.000Z",
      ],
    ],
  );
  assert.ok(
    lines.every((l) => !("url" in l)),
    "no review page runs, so no url",
  );
});

test("docket web's desktop notification carries a default action; the service's ActionInvoked opens the card with notify.openCommand", {
  timeout: 60_000,
}, async (t) => {
  const bus = await sessionBus(t);
  const service = await notificationService(t, bus);
  const g = reviewGround(t);
  const opened = join(g.home, "opened.txt");
  const opener = join(g.home, "opener.mjs");
  writeFileSync(
    opener,
    `import { appendFileSync } from "node:fs";\nappendFileSync(${JSON.stringify(opened)}, JSON.stringify(process.argv.slice(2)) + "\\n");\n`,
  );
  writeFileSync(
    join(g.home, "config.json"),
    JSON.stringify({
      notify: { desktop: true, batchSeconds: 0, openCommand: [process.execPath, opener, "--new-tab"] },
    }),
  );
  const env = groundEnv(t, g, { DOCKET_TMUX_SOCKET: tmuxServer(t).socket, ...bus.env });
  const started = await detachedWeb(t, env, g.project);
  const w1 = reviewWorker(t, g);
  publish(g, w1, { "src/app.txt": "changed\n" });
  const call = await waitFor("docket web's ready notification at the service", () => service.calls[0], 20_000, 50);
  assert.equal(call.summary, `Docket: ${w1.worker} has a version ready for judgment`);
  assert.deepEqual(call.actions, ["default", "Open in Docket"]);
  service.invoke(call.id, "default");
  const line = await waitFor("the opener's line", fileOnce(opened, endsWithLine), 20_000, 50);
  assert.deepEqual(
    JSON.parse(line),
    ["--new-tab", `${new URL(started.url).origin}/card/${w1.worker}`],
    "the card's address, without the sign-in secret",
  );
});

test("a sender outside the project (as the door is) gives each event its own project's card address", {
  timeout: 60_000,
}, async (t) => {
  const g = reviewGround(t);
  const out = notifyReceiver(g.home, g.home);
  const env = groundEnv(t, g, { DOCKET_TMUX_SOCKET: tmuxServer(t).socket });
  const started = await detachedWeb(t, env, g.project);
  const w1 = reviewWorker(t, g);
  wait(g.ctx, w1, { question: "which one?" });
  // The door's engine works from the home directory, not from any project.
  const door = openEngine({ env, cwd: g.home });
  t.after(() => door.close());
  const sent = await sendDueNotifications(door, { holder: "door:test" });
  assert.equal(sent?.events.length, 1);
  const [line] = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.equal(line.url, `${new URL(started.url).origin}/card/${w1.worker}`);
});
