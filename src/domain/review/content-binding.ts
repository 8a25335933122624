// Approval binds content: a judgment records the sha256 of the exact bytes it judged, and every act on an approval
// (promote, use, save, the verdict card) re-verifies them; a mismatch is one refusal naming the file and both hashes
// (docs/decisions/authority.md).

import { refKind } from "../deliverables/refs.js";
import { DocketError } from "../errors.js";

export interface ContentCheck {
  /** What was approved (a deliverable or stored ref). */
  ref: string;
  /** The file read now. */
  file: string;
  /** The hash recorded when the content was judged (or pinned); null for a judgment recorded before hashes were kept. */
  expected: string | null | undefined;
  /** The hash of the bytes read now. */
  actual: string;
}

/** The refusal for content that changed since it was judged, or undefined when it is unchanged (or nothing was recorded). */
export function contentMismatch(check: ContentCheck): DocketError | undefined {
  if (!check.expected || check.expected === check.actual) return undefined;
  return new DocketError(
    "refusal",
    "deliverable-tampered",
    `${check.ref} changed after it was judged: ${check.file} now has sha256 ${check.actual}, but the judgment recorded sha256 ${check.expected}; nothing changed`,
    {
      hint:
        refKind(check.ref) === "worker"
          ? `read what it holds now with \`docket diff ${check.ref}\`; restore the file, or judge these bytes anew with \`docket approve ${check.ref}\``
          : `restore the file as it was, or remove this version with \`docket deliverable delete ${check.ref}\``,
      details: { file: check.file, expectedSha256: check.expected, actualSha256: check.actual },
    },
  );
}

/** Throws the mismatch refusal of `contentMismatch`, if any. */
export function verifyContent(check: ContentCheck): void {
  const mismatch = contentMismatch(check);
  if (mismatch) throw mismatch;
}
