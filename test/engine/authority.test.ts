// Only the human judges, at the engine door every surface shares (docs/decisions/authority.md): each verb of the one
// list refuses an engine context whose environment carries any worker identity variable, before it reads, prompts or
// writes anything.

import { test } from "node:test";
import assert from "node:assert/strict";
import { HUMAN_VERBS, WORKER_IDENTITY_VARS, type HumanVerb } from "../../src/domain/authority.js";
import type { EngineContext } from "../../src/engine/context.js";
import { openEngine } from "../../src/engine/open.js";
import { useForParent, useForWorker, dropChip } from "../../src/engine/handoff/use.js";
import { approve, answer, discard, reject, revise } from "../../src/engine/review/judge.js";
import { planPromotion, promote } from "../../src/engine/review/promote.js";
import { addComment, deleteComment, editComment } from "../../src/engine/review/comments.js";
import { saveAuthored, saveFromWorker } from "../../src/engine/store/save.js";
import { deleteStored, describeDeleteTarget, loadStored, unloadStored } from "../../src/engine/store/slots.js";
import { dismissAttention } from "../../src/engine/talk/attention.js";
import { takeChips } from "../../src/engine/talk/parent-feed.js";
import { tellWorker } from "../../src/engine/talk/tell.js";
import { planBroadcast, sendBroadcast } from "../../src/engine/talk/broadcast.js";
import { postToJournal } from "../../src/engine/talk/journal.js";
import { abortCombine, combineChangeSets, continueCombine } from "../../src/engine/review/combine.js";
import { dispatchItems } from "../../src/engine/work/dispatch.js";
import { addItem, editItem, replyItem } from "../../src/engine/work/items.js";
import { parkObligationUntil, unparkObligationNow } from "../../src/engine/work/obligations.js";
import { deleteWorker, pruneWorkers } from "../../src/engine/workers/delete.js";
import { addHost, removeHost } from "../../src/engine/hosts/hosts.js";
import { respawnTarget, respawnWorker } from "../../src/engine/workers/respawn.js";
import { spawnWorker } from "../../src/engine/workers/spawn.js";
import { everyVerbGround } from "../support/authority-ground.js";
import { appWith, gitStatus, publish, reviewGround, reviewWorker } from "../support/review-fixture.js";
import { fileTree, ledgerRows } from "../support/snapshot.js";
import { tmuxServer } from "../support/tmux.js";

type Call = (ctx: EngineContext) => unknown;

/** Every human verb, each with the engine calls that carry it (several doors may reach one verb). */
const CALLS: Record<HumanVerb, Call[]> = {
  approve: [(c) => approve(c, { target: "w1" })],
  reject: [(c) => reject(c, { target: "w1", note: "no" })],
  revise: [(c) => revise(c, { target: "w1", note: "more" })],
  answer: [(c) => answer(c, { worker: "w1", text: "yes" })],
  promote: [
    (c) => planPromotion(c, { target: "w1", approve: true, yes: true }),
    (c) => promote(c, { target: "w1", approve: true, yes: true }),
  ],
  discard: [(c) => discard(c, { worker: "w1", confirmed: true })],
  use: [
    (c) => useForParent(c, { target: "w1" }),
    (c) => useForWorker(c, { target: "w1", agent: "command", command: "true", yes: true }),
  ],
  "chips drop": [(c) => dropChip(c, "c1")],
  "chips take": [(c) => takeChips(c)],
  save: [
    (c) => saveFromWorker(c, { from: "w1" }),
    (c) => saveAuthored(c, { bodyFile: "body.md", outcome: "findings" }),
  ],
  load: [(c) => loadStored(c, "last")],
  unload: [(c) => unloadStored(c, "d1")],
  "deliverable delete": [(c) => describeDeleteTarget(c, "last"), (c) => deleteStored(c, "last", { confirmed: true })],
  dispatch: [(c) => dispatchItems(c, { worker: "w1", items: ["t2"] })],
  "item add": [(c) => addItem(c, { kind: "todo", text: "sneaky" })],
  "item edit": [(c) => editItem(c, { id: "t1", text: "edited" })],
  "item reply": [(c) => replyItem(c, { id: "t1", text: "reply" })],
  "obligation park": [(c) => parkObligationUntil(c, { id: "o1", until: "2030-01-01T00:00:00Z" })],
  "obligation unpark": [(c) => unparkObligationNow(c, { id: "o1" })],
  "attention dismiss": [(c) => dismissAttention(c, ["n1"])],
  spawn: [(c) => spawnWorker(c, { task: "another", agent: "command", command: "true", yes: true })],
  respawn: [(c) => respawnWorker(c, "w1"), (c) => respawnTarget(c, "all")],
  delete: [(c) => deleteWorker(c, { worker: "w1", yes: true, force: true })],
  prune: [(c) => pruneWorkers(c)],
  tell: [(c) => tellWorker(c, { worker: "w1", text: "hello" })],
  broadcast: [
    (c) => planBroadcast(c, { text: "src/app.txt changed" }),
    (c) => sendBroadcast(c, { body: "hello", workers: ["w1"] }),
    (c) => postToJournal(c, { text: "hello" }),
  ],
  combine: [(c) => combineChangeSets(c, { sources: ["w1", "w2"] }), (c) => continueCombine(c), (c) => abortCombine(c)],
  comment: [
    (c) => addComment(c, { target: "w1", location: "src/app.txt:3", text: "why" }),
    (c) => editComment(c, { id: "cm1", text: "x" }),
    (c) => deleteComment(c, { id: "cm1" }),
  ],
  "hosts add": [(c) => addHost(c, { name: "box", destination: "dev@127.0.0.1" })],
  "hosts rm": [(c) => removeHost(c, "box")],
};

test("the list of human verbs is complete here: every verb has the engine calls that carry it", () => {
  assert.deepEqual(Object.keys(CALLS).sort(), [...HUMAN_VERBS].sort());
});

test("every human verb refuses an engine whose environment carries a worker identity, and writes nothing", async (t) => {
  const server = tmuxServer(t);
  const { g, w } = everyVerbGround(t);
  g.ctx.close();

  const ledger = g.ctx.home.ledger;
  const before = {
    rows: ledgerRows(ledger),
    home: fileTree(g.home),
    project: gitStatus(g.project),
    workspace: gitStatus(w.workspace),
  };
  let n = 0;
  for (const verb of HUMAN_VERBS) {
    for (const call of CALLS[verb]) {
      // Any one of the three variables is enough; each verb meets a different one.
      const variable = WORKER_IDENTITY_VARS[n++ % WORKER_IDENTITY_VARS.length]!;
      const ctx = openEngine({
        env: { DOCKET_HOME: g.home, DOCKET_TMUX_SOCKET: server.socket, [variable]: "w1" },
        cwd: g.project,
      });
      try {
        await assert.rejects(
          async () => call(ctx),
          (e: { code?: string; message: string }) => {
            assert.equal(e.code, "worker-cannot-judge", `${verb}: ${e.message}`);
            assert.match(
              e.message,
              new RegExp(
                `^${verb} is the human's: this process carries a worker identity \\(${variable}\\); nothing was changed$`,
              ),
            );
            return true;
          },
        );
      } finally {
        ctx.close();
      }
    }
  }
  assert.deepEqual(
    {
      rows: ledgerRows(ledger),
      home: fileTree(g.home),
      project: gitStatus(g.project),
      workspace: gitStatus(w.workspace),
    },
    before,
    "no refused verb wrote anything",
  );
  assert.throws(() => server.tmux("list-sessions"), /no server running|error connecting/, "no window was started");
});

test("the same calls from the human's own environment go through (the guard is the only thing refusing them)", (t) => {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  const v1 = publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  const human = openEngine({ env: { DOCKET_HOME: g.home, DOCKET_WORKER_ID: "" }, cwd: g.project });
  t.after(() => human.close());
  assert.equal(
    approve(human, { target: w.worker }).decision.deliverable?.ref,
    v1.ref,
    "an empty variable is no identity",
  );
  assert.equal(addItem(human, { kind: "todo", text: "mine" }).id, "t1");
});
