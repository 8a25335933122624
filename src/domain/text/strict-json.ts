// JSON handed to Docket from outside (a file you name, your config, a steps file), read strictly: valid UTF-8 only, and
// no key that would reach an object's prototype once the value is merged or spread (`__proto__`, `constructor`,
// `prototype`), at any depth. Pure: bytes or text in, a value or the reason it was refused out.

/** Keys never taken from input: through a merge or a spread each one can change what every object inherits. */
const FORBIDDEN_JSON_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

export type StrictJson = { ok: true; value: unknown } | { ok: false; reason: string };

/** The text of `bytes` when they are valid UTF-8 (a leading byte-order mark dropped), else undefined. */
export function decodeUtf8Strictly(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

class ForbiddenKey extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/** Parses `text` as JSON, refusing a forbidden key anywhere in it; the reason reads after the input's name. */
export function parseStrictJson(text: string): StrictJson {
  try {
    const value: unknown = JSON.parse(text, (key, v: unknown) => {
      if (FORBIDDEN_JSON_KEYS.includes(key)) throw new ForbiddenKey(key);
      return v;
    });
    return { ok: true, value };
  } catch (error) {
    if (error instanceof ForbiddenKey)
      return {
        ok: false,
        reason: `has a ${JSON.stringify(error.key)} key, which Docket never takes from input (nor ${FORBIDDEN_JSON_KEYS.filter((k) => k !== error.key).join(" or ")})`,
      };
    return { ok: false, reason: `is not valid JSON: ${(error as Error).message}` };
  }
}

/** Both checks on raw bytes: valid UTF-8, then strict JSON. */
export function parseStrictJsonBytes(bytes: Uint8Array): StrictJson {
  const text = decodeUtf8Strictly(bytes);
  return text === undefined ? { ok: false, reason: "is not valid UTF-8" } : parseStrictJson(text);
}
