// The ground the authority tests refuse every human verb on: a worker whose published version was approved, used for
// the parent and saved, and two todos (t1 dispatched to it), so that each verb has something it could act on.

import { useForParent } from "../../src/engine/handoff/use.js";
import { approve } from "../../src/engine/review/judge.js";
import { saveFromWorker } from "../../src/engine/store/save.js";
import { dispatchItems } from "../../src/engine/work/dispatch.js";
import { addItem } from "../../src/engine/work/items.js";
import type { ProtocolWorker } from "./protocol-worker.js";
import { appWith, publish, reviewGround, reviewWorker, type ReviewGround } from "./review-fixture.js";

export function everyVerbGround(t: { after(fn: () => void): void }): { g: ReviewGround; w: ProtocolWorker } {
  const g = reviewGround(t);
  const w = reviewWorker(t, g);
  publish(g, w, { "src/app.txt": appWith({ 3: "three" }) });
  addItem(g.ctx, { kind: "todo", text: "first" });
  addItem(g.ctx, { kind: "todo", text: "second" });
  dispatchItems(g.ctx, { worker: w.worker, items: ["t1"] });
  approve(g.ctx, { target: w.worker });
  useForParent(g.ctx, { target: w.worker });
  saveFromWorker(g.ctx, { from: w.worker });
  return { g, w };
}
