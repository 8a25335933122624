// Claim: a choose killed in the middle of its transaction (after the approval and one not-chosen row were written)
// leaves all or none: no decision, no choice, no candidate stopped; the same choose run again records all of it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { chooseCandidate } from "../../../src/engine/groups/choose.js";
import { compareGroup } from "../../../src/engine/groups/compare.js";
import { appWith, decisionCount, publish } from "../../support/review-fixture.js";
import { groupGround } from "../../support/group-fixture.js";

const CHILD = fileURLToPath(new URL("../../support/choose-child.js", import.meta.url));

test("a choose killed mid-transaction records nothing, and its retry records the approval and every not-chosen together", async (t) => {
  const { g, group, workers } = groupGround(t, 3);
  const refs = workers.map((w, i) => publish(g, w, { "src/app.txt": appWith({ 9: `nine by ${i + 1}` }) }).ref);
  compareGroup(g.ctx, group, { surface: "cli" });
  const child = spawn(process.execPath, [CHILD, refs[1]!], {
    env: { ...process.env, DOCKET_HOME: g.home },
    cwd: g.project,
    stdio: ["pipe", "pipe", "inherit"],
  });
  t.after(() => child.kill("SIGKILL"));
  const said = (word: string) =>
    new Promise<void>((resolve) => {
      let text = "";
      const on = (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes(`${word}\n`)) {
          child.stdout!.off("data", on);
          resolve();
        }
      };
      child.stdout!.on("data", on);
    });
  await said("ready");
  const mid = said("mid");
  child.stdin!.write("go\n");
  await mid;
  child.kill("SIGKILL");
  await new Promise((r) => child.once("exit", r));

  assert.equal(decisionCount(g.ctx), 0, "no approval, no not-chosen row");
  assert.deepEqual(g.ctx.db.prepare("SELECT chosen_ref, chosen_decision FROM worker_groups").get(), {
    chosen_ref: null,
    chosen_decision: null,
  });
  assert.deepEqual(
    (g.ctx.db.prepare("SELECT exited FROM workers ORDER BY seq").all() as { exited: number }[]).map((w) => w.exited),
    [0, 0, 0],
    "no candidate was stopped",
  );

  const r = chooseCandidate(g.ctx, { ref: refs[1]! });
  assert.deepEqual(
    (
      g.ctx.db.prepare("SELECT worker, verb FROM decisions ORDER BY seq").all() as { worker: string; verb: string }[]
    ).map((d) => `${d.worker} ${d.verb}`),
    ["w2 approve", "w1 not-chosen", "w3 not-chosen"],
  );
  assert.deepEqual(r.stopped, ["w1", "w3"]);
});
