// Assertions on Docket's one error family: a thrown error carries this code (and, optionally, a message like this).
// Used as the second argument of assert.throws, so a wrong error fails with its own message.

import assert from "node:assert/strict";

export const codeOf = (code: string, message?: RegExp) => (e: unknown) => {
  assert.equal((e as { code?: string }).code, code, (e as Error).message);
  if (message) assert.match((e as Error).message, message);
  return true;
};
