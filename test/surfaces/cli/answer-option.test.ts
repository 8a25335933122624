// A question card's advice runs as written: `e.g. docket answer w1 1` picks option 1, as the 1 key does on pi's card;
// a number outside the options is sent as the text it is.

import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { docket, jsonOf } from "../../support/docket-cli.js";
import { cliGround } from "../../support/cli-workers.js";

test("`docket answer w1 1` answers with the question's first option, and the card advises exactly that", {
  timeout: 180_000,
}, (t) => {
  const { root, repo, env } = cliGround(t, { homeDir: "home", files: { "README.md": "hello\n" } });
  const steps = [
    {
      text: "I need to know the port.",
      toolCall: { name: "docket_wait", arguments: { question: "Which port?", options: ["8080", "9090"] } },
    },
  ];
  writeFileSync(join(root, "steps.json"), JSON.stringify(steps));
  const spawned = jsonOf(
    docket(
      { env, cwd: repo },
      "spawn",
      "--scripted",
      join(root, "steps.json"),
      "--wait",
      "--as",
      "scout",
      "--json",
      "Find the port",
    ),
  );
  assert.equal(spawned.waited, "needs_input");

  const card = docket({ env, cwd: repo }, "verdict", "w1");
  assert.equal(card.code, 0, card.stderr);
  const advice = /e\.g\. (docket answer w1 \S+)$/m.exec(card.stdout)?.[1];
  assert.equal(advice, "docket answer w1 1", card.stdout);
  const answered = jsonOf(docket({ env, cwd: repo }, ...advice.split(" ").slice(1), "--json"));
  assert.equal(answered.decision.verb, "answer");
  const log = jsonOf(docket({ env, cwd: repo }, "log", "--json"));
  assert.equal(
    log.decisions.find((d: { id: string }) => d.id === answered.decision.id)?.option,
    "8080",
    "the number picked the option's text",
  );

  const help = docket({ env, cwd: repo }, "answer", "--help");
  assert.match(
    help.stdout.replace(/\s+/g, " "),
    /a number within the question's options \(1, 2, …\) picks that option/,
  );
});
