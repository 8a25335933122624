// A card's moves are data: each names itself as the `--json` contract's action string and binds to one exact version
// with the command line that does the same; nothing parses an action string back.

import { test } from "node:test";
import assert from "node:assert/strict";
import { bindMove, distinctMoves, moveText, type CardMove } from "../../../src/domain/review/card-actions.js";

const AT = { worker: "w3", ref: "worker-deliverable:w3:2", version: 2 };

test("each move is named as the verdict card's --json actions have always named it", () => {
  const moves: CardMove[] = [
    { verb: "approve" },
    { verb: "promote", withApproval: true },
    { verb: "promote" },
    { verb: "use", mode: "implement" },
    { verb: "use", mode: "parent" },
    { verb: "use", mode: "worker" },
    { verb: "save" },
    { verb: "answer" },
    { verb: "discard" },
  ];
  assert.deepEqual(moves.map(moveText), [
    "approve",
    "promote --approve",
    "promote",
    "use --implement",
    "use --parent",
    "use --worker",
    "save",
    "answer",
    "discard",
  ]);
});

test("a bound move names the exact version on the command line; worker-level verbs name the worker", () => {
  const cli = (m: CardMove) => bindMove(m, AT).cli;
  assert.equal(cli({ verb: "promote", withApproval: true }), "docket promote worker-deliverable:w3:2 --approve");
  assert.equal(cli({ verb: "use", mode: "implement" }), "docket use worker-deliverable:w3:2 --implement");
  assert.equal(cli({ verb: "revise" }), "docket revise worker-deliverable:w3:2 <note>");
  assert.equal(cli({ verb: "save" }), "docket save --from worker-deliverable:w3:2");
  assert.equal(cli({ verb: "answer" }), "docket answer w3 <text>");
  assert.equal(cli({ verb: "respawn" }), "docket respawn w3");
  assert.equal(bindMove({ verb: "approve" }, { worker: "w4", ref: null, version: null }).cli, "docket approve w4");
  assert.deepEqual(bindMove({ verb: "use", mode: "worker" }, AT), {
    verb: "use",
    mode: "worker",
    ...AT,
    cli: "docket use worker-deliverable:w3:2 --worker",
  });
});

test("a move offered twice is kept once, where it was first offered", () => {
  const moves = distinctMoves([
    { verb: "revise" },
    { verb: "promote" },
    { verb: "revise" },
    { verb: "promote", withApproval: true },
  ]);
  assert.deepEqual(moves.map(moveText), ["revise", "promote", "promote --approve"]);
});
