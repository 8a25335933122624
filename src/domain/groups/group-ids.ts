// Best-of-N group ids (`b<N>`, numbered by the ledger's own counter, never reused) and the one rule for reading one.
// What only resembles an id (`B1`, `b01`, `1`) is refused with the id it resembles, as worker ids are (ids.ts).

import { validationError } from "../errors.js";

const GROUP_ID = /^b([1-9][0-9]{0,9})$/;

export const GROUP_COUNTER = "group";

export function formatGroupId(n: number): string {
  return `b${n}`;
}

/** True for exactly `b<N>`. */
export function isGroupId(value: string): boolean {
  return GROUP_ID.test(value);
}

/** Exactly `b<N>`, or a validation error that names what was given and, when it resembles one, the id it resembles. */
export function parseGroupId(value: string): string {
  const v = value.trim();
  if (GROUP_ID.test(v)) return v;
  const near = /^[bB]?0*([1-9][0-9]{0,9})$/.exec(v);
  throw validationError(
    "bad-group-id",
    `${JSON.stringify(v)} is not a group id: groups are b<N>, as \`docket spawn --best-of <N> <task>\` and \`docket ls\` print them`,
    near ? `did you mean b${near[1]}?` : "list groups with `docket ls`",
  );
}
