// The rule `choose` keeps: the human picks one exact version of the comparison they were shown, and nothing in the
// group moved since (a candidate's new version, other bytes) — else the choice is refused and nothing is recorded.

import { refusal, type DocketError } from "../errors.js";

/** One candidate's current version as a comparison showed it (ref null: it had none yet). */
export interface ShownCandidate {
  worker: string;
  ref: string | null;
  sha256: string | null;
}

export interface ChoiceInput {
  group: string;
  /** The exact ref the human chose and the worker it belongs to. */
  ref: string;
  worker: string;
  /** The sha256 of the chosen sidecar's bytes now. */
  sha256: string;
  /** Each candidate's current ref now, in group order. */
  candidates: readonly { worker: string; ref: string | null }[];
  /** What the last comparison showed the human (null: never shown). */
  shown: readonly ShownCandidate[] | null;
  /** The ref already chosen in this group, if any. */
  chosen: string | null;
}

/** Undefined when the choice may be recorded; otherwise the refusal that names what differs and what to do. */
export function choiceRefusal(input: ChoiceInput): DocketError | undefined {
  const { group, ref } = input;
  const again = `\`docket compare ${group}\``;
  if (input.chosen !== null)
    return refusal(
      "group-already-chosen",
      `${group} already has its choice (${input.chosen}); nothing changed`,
      `every candidate's versions stay reviewable: \`docket approve <ref>\` or \`docket promote <ref> --approve\``,
    );
  if (!input.candidates.some((c) => c.worker === input.worker))
    return refusal("not-a-candidate", `${ref} is not a version of a candidate of ${group}; nothing changed`);
  if (input.shown === null)
    return refusal(
      "comparison-not-shown",
      `the comparison of ${group} was never shown to you, so there is nothing to choose from yet; nothing changed`,
      `open it first: ${again}`,
    );
  for (const c of input.candidates) {
    const seen = input.shown.find((s) => s.worker === c.worker);
    const shownRef = seen?.ref ?? null;
    if (shownRef !== c.ref)
      return refusal(
        "candidate-moved-since-shown",
        `${c.worker} ${c.ref === null ? "has no version" : `published ${c.ref}`} after the comparison of ${group} was shown to you (it showed ${shownRef ?? "no version"}); nothing changed`,
        `compare again with ${again}, then choose`,
      );
  }
  const chosen = input.shown.find((s) => s.worker === input.worker)!;
  if (chosen.ref !== ref)
    return refusal(
      "not-shown-version",
      `${ref} is not the version of ${input.worker} the comparison of ${group} showed you (${chosen.ref ?? "none"}); nothing changed`,
      chosen.ref
        ? `choose the version you were shown: \`docket choose ${chosen.ref}\``
        : `wait for ${input.worker} to publish, then ${again}`,
    );
  if (chosen.sha256 !== input.sha256)
    return refusal(
      "deliverable-tampered",
      `${ref}'s file changed since the comparison of ${group} showed it (sha256 ${chosen.sha256} then, ${input.sha256} now); nothing changed`,
      `compare again with ${again}`,
    );
  return undefined;
}
