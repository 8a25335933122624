// The one error family: every refusal carries a stable kebab-case code, a one-line message and a category.
// Surfaces map the category to an exit code and never match on message text (STYLE §11).

export type ErrorCategory = "validation" | "refusal" | "conflict" | "fenced" | "not-found" | "usage" | "internal";

export class DocketError extends Error {
  readonly code: string;
  readonly category: ErrorCategory;
  readonly hint?: string;

  constructor(category: ErrorCategory, code: string, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DocketError";
    this.category = category;
    this.code = code;
    this.hint = options.hint;
  }
}

export const validationError = (code: string, message: string, hint?: string) => new DocketError("validation", code, message, { hint });
export const refusal = (code: string, message: string, hint?: string) => new DocketError("refusal", code, message, { hint });
export const conflict = (code: string, message: string, hint?: string) => new DocketError("conflict", code, message, { hint });
export const fenced = (code: string, message: string, hint?: string) => new DocketError("fenced", code, message, { hint });
export const notFound = (code: string, message: string, hint?: string) => new DocketError("not-found", code, message, { hint });
export const usageError = (code: string, message: string, hint?: string) => new DocketError("usage", code, message, { hint });
export const internalError = (code: string, message: string, cause?: unknown) => new DocketError("internal", code, message, { cause });

export function isDocketError(value: unknown): value is DocketError {
  return value instanceof DocketError;
}

/** Exit code contract of every surface: 0 ok, 1 refused/failed, 2 usage. */
export function exitCodeFor(error: unknown): 1 | 2 {
  return isDocketError(error) && error.category === "usage" ? 2 : 1;
}
