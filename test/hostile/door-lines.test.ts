// A contained worker sends its door unframed and oversized lines (docs/decisions/door.md; before the caps, four
// unframed 63 MiB lines slowed another worker's heartbeat from ~50 ms to seconds): each is refused `call-too-large`
// with the limit and the key that raises it, its connection closed; another worker's heartbeats land meanwhile, and the
// real client shows the refusal.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  containedWorker,
  doorGround,
  doorPid,
  honestHeartbeat,
  nodeScript,
  scratchLine,
} from "../support/door-abuse.js";
import { waitFor } from "../support/wait.js";

const LIMIT = 1024 * 1024;

/**
 * Four connections stream 24 MiB each with no newline; a fifth sends one framed line of 3 MiB. Each records the first
 * line the door wrote back (or none) once its connection closed, into `lines` in its scratch dir.
 */
const LINES = `
const net = require("net"), fs = require("fs"), dir = process.env.TMPDIR;
const results = [];
function attack(framed) {
  const s = net.connect(process.env.DOCKET_DOOR);
  let got = "";
  s.on("data", (d) => (got += d));
  s.on("error", () => {});
  s.on("close", () => {
    results.push({ framed, reply: got.split("\\n")[0] });
    if (results.length === 5) fs.writeFileSync(dir + "/lines", JSON.stringify(results));
  });
  s.on("connect", () => {
    if (framed) return s.write(JSON.stringify({ call: "heartbeat", pad: "x".repeat(3 * 1024 * 1024) }) + "\\n");
    const chunk = Buffer.alloc(64 * 1024, 120);
    let sent = 0;
    const more = () => {
      while (sent < 24 * 1024 * 1024 && !s.destroyed) {
        sent += chunk.length;
        if (!s.write(chunk)) return s.once("drain", more);
      }
    };
    more();
  });
}
for (let i = 0; i < 4; i++) attack(false);
attack(true);
`;

test("unframed and oversized lines from a contained worker are refused call-too-large (the limit, the key) and closed; another worker's heartbeats land meanwhile", {
  timeout: 300_000,
}, async (t) => {
  const g = doorGround(t, { door: { maxCallBytes: LIMIT } });
  const honest = await containedWorker(g, "exec sleep 600", "honest");
  await honestHeartbeat(honest);
  const pid = doorPid(g.home);
  const attacker = await containedWorker(g, `${nodeScript(g, "lines", LINES)}; exec sleep 600`, "lines");
  for (let i = 0; i < 5; i++) await honestHeartbeat(honest);
  const text = await waitFor(
    "the attacker's five connections closed",
    scratchLine(attacker, "lines", /\]$/),
    120_000,
    200,
  );
  const results = JSON.parse(text) as { framed: boolean; reply: string }[];
  assert.equal(results.length, 5);
  for (const r of results) {
    const reply = JSON.parse(r.reply) as { ok: boolean; error: { code: string; message: string; hint: string } };
    assert.equal(reply.ok, false);
    assert.equal(reply.error.code, "call-too-large", r.reply);
    assert.match(reply.error.message, new RegExp(`at most ${LIMIT} bytes \\(1 MiB\\) in one call`));
    assert.match(reply.error.hint, /door\.maxCallBytes in their user config/);
  }
  await honestHeartbeat(honest);
  assert.equal(doorPid(g.home), pid, "the same door serves on");

  // The real client: a done whose body is over the cap shows the refusal as one readable line, and records nothing.
  const big = "a long body line\n".repeat(700_000); // 12 MB: the client is still writing when the door refuses
  const refused = await attacker.call(["worker", "done", "--outcome", "completed", "--summary", "s"], big);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /the door takes at most 1048576 bytes \(1 MiB\) in one call/);
  assert.match(refused.stderr, /door\.maxCallBytes/);
  const shown = g.human("show", attacker.id, "--json");
  assert.notEqual(shown.json.state, "ready", "nothing was published");
});
