// `/docket web` inside a real pi session: it starts the review page detached (the session is never held by a server)
// and shows the sign-in address; asked again, or from the CLI, it finds the same server instead of starting another.

import { test } from "node:test";
import assert from "node:assert/strict";
import { parentFixture as parent } from "../../../support/pi-parent.js";
import type { PiRpc } from "../../../support/pi-rpc.js";

/** Ends a server this test started, whatever happened to its home (hooks that remove temp dirs may run first). */
function stopPid(pid: number): void {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // already stopped by the test itself: nothing to end
  }
}

async function notices(pi: PiRpc, text: string): Promise<string[]> {
  const from = pi.seen.length;
  const r = await pi.call({ type: "prompt", message: text });
  assert.equal(r.success, true, `${text}: ${JSON.stringify(r)}`);
  return pi.seen
    .slice(from)
    .filter((m) => m.type === "extension_ui_request" && m.method === "notify")
    .map((m) => String(m.message));
}

test("/docket web starts the review page in the background and shows its address; a second /docket web finds it", async (t) => {
  const p = parent(t);
  const pi = p.start();
  await pi.call({ type: "get_state" });
  const first = await notices(pi, "/docket web");
  assert.equal(first.length, 1, JSON.stringify(first));
  const m =
    /^review page started for .* \(pid (\d+)\)\n {2}open: (http:\/\/127\.0\.0\.1:\d+\/\?k=[A-Za-z0-9_-]{43})\n/.exec(
      first[0]!,
    );
  assert.ok(m, first[0]);
  t.after(() => stopPid(Number(m[1])));
  const page = await fetch(m[2]!, { redirect: "manual" });
  assert.equal(page.status, 303, "the address signs a browser in");
  // The sign-in key is single-use: the second /docket web shows the server's next key, the first is spent.
  const second = await notices(pi, "/docket web");
  const base = m[2]!.replace(/\/\?k=.*$/, "");
  const again = new RegExp(
    `^review page already running for .* \\(pid ${m[1]}\\)\\n  open: (${base.replace(/[.]/g, "\\.")}/\\?k=[A-Za-z0-9_-]{43})`,
  ).exec(second[0]!);
  assert.ok(again && again[1] !== m[2], second[0]);
  assert.equal((await fetch(m[2]!, { redirect: "manual" })).status, 403, "a used address signs nobody in again");
  const fromCli = p.cli("web", "--json");
  assert.deepEqual([fromCli.json.started, fromCli.json.url], [false, again[1]]);
  assert.equal(await pi.close(), 0);
  const after = p.cli("web", "--json", "--detach");
  assert.deepEqual(
    [after.json.started, after.json.pid],
    [false, Number(m[1])],
    "the server outlives the pi session that started it",
  );
  assert.equal(p.cli("web", "--stop", "--json").json.stopped, true);
});
