// The random suffix of the tags that wrap worker text for the session's model (Use → Parent chips, consults).
// Drawn when the wrapper is written, after the worker's text was frozen, so the worker cannot predict or close it.

import { randomBytes } from "node:crypto";

export const wrapperNonce = (): string => randomBytes(8).toString("hex");
