// The ordered list of schema migrations. Append only: a shipped migration is never edited or renumbered.
// The migrator refuses a database whose applied history is not a prefix of this list (STYLE §15).

import { sql as m001 } from "./001-foundation.js";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "foundation", sql: m001 },
];
