// The one error family: every refusal carries a stable kebab-case code, a one-line message and a category.
// Surfaces map the category to an exit code and never match on message text.

export type ErrorCategory = "validation" | "refusal" | "conflict" | "fenced" | "not-found" | "usage" | "internal";

export class DocketError extends Error {
  readonly code: string;
  readonly category: ErrorCategory;
  readonly hint?: string;
  /** Facts a script may need beside code and message (a file and its hashes, per-entry results); JSON-safe. */
  readonly details?: Readonly<Record<string, unknown>>;

  constructor(
    category: ErrorCategory,
    code: string,
    message: string,
    options: { hint?: string; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DocketError";
    this.category = category;
    this.code = code;
    this.hint = options.hint;
    if (options.details !== undefined) this.details = options.details;
  }
}

/** The maker of one category's errors: a code, a message and an optional hint. */
const ofCategory =
  (category: Exclude<ErrorCategory, "internal">) =>
  (code: string, message: string, hint?: string): DocketError =>
    new DocketError(category, code, message, { hint });

export const validationError = ofCategory("validation");
export const refusal = ofCategory("refusal");
export const conflict = ofCategory("conflict");
export const fenced = ofCategory("fenced");
export const notFound = ofCategory("not-found");
export const usageError = ofCategory("usage");
export const internalError = (code: string, message: string, cause?: unknown) =>
  new DocketError("internal", code, message, { cause });

/** The one refusal shape every surface prints: `{code, message, hint?, …details}` (README "JSON contract"). */
export function errorShape(error: DocketError): Record<string, unknown> {
  const shape: Record<string, unknown> = {
    code: error.code,
    message: error.message,
    ...(error.hint ? { hint: error.hint } : {}),
  };
  for (const [name, value] of Object.entries(error.details ?? {})) if (!(name in shape)) shape[name] = value;
  return shape;
}

export function isDocketError(value: unknown): value is DocketError {
  return value instanceof DocketError;
}

/** Exit code contract of every surface: 0 ok, 1 refused/failed, 2 usage. */
export function exitCodeFor(error: unknown): 1 | 2 {
  return isDocketError(error) && error.category === "usage" ? 2 : 1;
}
