// Confirmation, one policy: --yes or an unneeded confirmation proceeds, a terminal asks, no terminal refuses
// (a spawn proceeds unattended); each verb keeps the one code its contract already had.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  confirmationDeclined,
  confirmationRefused,
  resolveConfirmation,
  type ConfirmedVerb,
} from "../../../src/domain/review/confirmation.js";

test("the policy: proceed on --yes or when nothing needs confirming, ask on a terminal, refuse off one", () => {
  const verbs: ConfirmedVerb[] = ["promote", "use --worker", "discard", "delete", "deliverable delete"];
  for (const verb of verbs) {
    assert.equal(resolveConfirmation(verb, { yes: true, interactive: false }), "proceed", verb);
    assert.equal(resolveConfirmation(verb, { yes: false, interactive: false, needed: false }), "proceed", verb);
    assert.equal(resolveConfirmation(verb, { yes: false, interactive: true }), "ask", verb);
    assert.equal(resolveConfirmation(verb, { yes: false, interactive: false }), "refuse", verb);
  }
  assert.equal(resolveConfirmation("spawn", { yes: false, interactive: false, needed: true }), "proceed");
  assert.equal(resolveConfirmation("spawn", { yes: false, interactive: true, needed: true }), "ask");
});

test("each verb has one refusal code (and category) when it cannot ask, and one when the human says no", () => {
  const refused = (["promote", "use --worker", "discard", "delete", "deliverable delete"] as const).map((v) => {
    const e = confirmationRefused(v, "w3", "parent changed a.txt");
    return `${v}:${e.code}:${e.category}`;
  });
  assert.deepEqual(refused, [
    "promote:promotion-needs-confirmation:refusal",
    "use --worker:use-needs-confirmation:refusal",
    "discard:discard-needs-confirmation:refusal",
    "delete:confirm-required:refusal",
    "deliverable delete:confirmation-required:refusal",
  ]);
  assert.equal(
    confirmationRefused("promote", "worker-deliverable:w3:1", "parent changed a.txt").message,
    "promoting worker-deliverable:w3:1 needs confirmation: parent changed a.txt; nothing changed",
  );
  const declined = (["promote", "use --worker", "discard", "delete", "spawn"] as const).map(
    (v) => confirmationDeclined(v, "w3").code,
  );
  assert.deepEqual(declined, [
    "promotion-cancelled",
    "use-cancelled",
    "discard-cancelled",
    "delete-cancelled",
    "spawn-cancelled",
  ]);
});
