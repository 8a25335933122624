// Confirmation: which verbs ask the human before they act, when, and the one refusal code each gives.
// A verb that needs it proceeds on --yes, asks on a terminal, and is refused (nothing changed) off one; no is its own code.

import { refusal, type DocketError } from "../errors.js";

/** The verbs that confirm before acting. `spawn` asks only when its resolved policy says so, and never refuses. */
export type ConfirmedVerb = "promote" | "use --worker" | "discard" | "delete" | "deliverable delete" | "spawn";

export type ConfirmStep = "proceed" | "ask" | "refuse";

export interface ConfirmInput {
  /** --yes, or a human already said yes (a web form's confirm box). */
  yes: boolean;
  /** A human can be asked here (a terminal, pi's UI). */
  interactive: boolean;
  /** Whether this run needs confirming at all (promote: only with warnings; spawn: only when its policy says). Default true. */
  needed?: boolean;
}

/** The one policy: unneeded or --yes → proceed; a terminal → ask; otherwise refuse — except spawn, which proceeds unattended. */
export function resolveConfirmation(verb: ConfirmedVerb, input: ConfirmInput): ConfirmStep {
  if (input.needed === false || input.yes) return "proceed";
  if (input.interactive) return "ask";
  return verb === "spawn" ? "proceed" : "refuse";
}

/**
 * The refusal when confirmation is needed and cannot be asked. One code per verb (the codes predate this module and
 * are kept as the CLI contract); every one is a refusal, exit 1, so a script sees one exit code for "needs --yes".
 */
export function confirmationRefused(verb: Exclude<ConfirmedVerb, "spawn">, subject: string, detail = ""): DocketError {
  switch (verb) {
    case "promote":
      return refusal(
        "promotion-needs-confirmation",
        `promoting ${subject} needs confirmation: ${detail}; nothing changed`,
        "re-run on a terminal to confirm, or pass --yes",
      );
    case "use --worker":
      return refusal(
        "use-needs-confirmation",
        "starting a handoff worker needs confirmation; nothing changed",
        "re-run on a terminal, or pass --yes",
      );
    case "discard":
      return refusal(
        "discard-needs-confirmation",
        `discarding ${subject}'s live changes needs confirmation; nothing changed`,
        "re-run on a terminal, or pass --yes",
      );
    case "delete":
      return refusal(
        "confirm-required",
        `deleting ${subject} needs confirmation${detail ? ` (${detail})` : ""}; run it on a terminal or pass --yes`,
      );
    case "deliverable delete":
      return refusal(
        "confirmation-required",
        `deleting ${subject} needs confirmation`,
        "run it in a terminal to confirm, or add --yes",
      );
  }
}

/** The refusal when the human was asked and said no: nothing changed. (Declining `deliverable delete` is quiet, exit 0.) */
export function confirmationDeclined(verb: Exclude<ConfirmedVerb, "deliverable delete">, subject: string): DocketError {
  switch (verb) {
    case "promote":
      return refusal("promotion-cancelled", "promotion cancelled; nothing changed");
    case "use --worker":
      return refusal("use-cancelled", "use cancelled; nothing changed");
    case "discard":
      return refusal("discard-cancelled", "discard cancelled; nothing changed");
    case "delete":
      return refusal("delete-cancelled", `${subject} was not deleted`);
    case "spawn":
      return refusal("spawn-cancelled", "spawn cancelled; nothing was started");
  }
}
