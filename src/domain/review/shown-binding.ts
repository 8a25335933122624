// What a bare worker id may judge: the current version, unless the human was last shown another one.
// The human read v1, the worker published v2: `approve w1` is refused and names the version to open; an exact ref always binds.

import { refusal, type DocketError } from "../errors.js";

export const SHOWN_SURFACES = ["cli", "web", "pi"] as const;
export type ShownSurface = (typeof SHOWN_SURFACES)[number];

/** The version of one worker a human surface last displayed (a card, a report, a diff). */
export interface ShownVersion {
  worker: string;
  ref: string;
  version: number;
  surface: ShownSurface;
  at: string;
}

export interface ShownBindingInput {
  worker: string;
  verb: "approve" | "reject" | "revise" | "promote";
  /** The version the judgment would land on (the worker's current one for a bare id). */
  current: { ref: string; version: number };
  /** The human named the version: an exact ref, `--version N`, or a card action bound to the version it showed. */
  named: boolean;
  lastShown: ShownVersion | undefined;
}

/**
 * Undefined when the judgment may go ahead. Never shown at all is allowed: nothing the human read disagrees with the
 * current version, and the result names the ref judged. Only a view of another version makes a bare id ambiguous.
 */
export function shownBindingRefusal(input: ShownBindingInput): DocketError | undefined {
  const { worker, current, lastShown } = input;
  if (input.named || !lastShown || lastShown.ref === current.ref) return undefined;
  const { verb } = input;
  const exact =
    verb === "promote"
      ? `\`docket promote ${current.ref} --approve\``
      : verb === "revise"
        ? `\`docket revise ${current.ref} <note>\``
        : verb === "reject"
          ? `\`docket reject ${current.ref}\``
          : `\`docket approve ${current.ref}\``;
  return refusal(
    "version-not-shown",
    `${worker}'s current version is v${current.version}, but the version last shown to you is v${lastShown.version} (${lastShown.ref}, on ${lastShown.surface}); ${verb} ${worker} would judge a version you have not opened; nothing changed`,
    `open v${current.version} with \`docket verdict ${worker}\`, or name the exact version: ${exact}`,
  );
}

/** The line a bare-id judgment prints first, so the exact ref judged is never in doubt; none when the version was named. */
export function formatJudgedLine(
  ref: string,
  version: number,
  lastShown: ShownVersion | undefined,
  named: boolean,
): string | undefined {
  if (named) return undefined;
  return lastShown
    ? `judged ${ref} (v${version}, as last shown to you on ${lastShown.surface})`
    : `judged ${ref} (v${version}; you have not opened it on any surface)`;
}
