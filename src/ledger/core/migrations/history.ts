// The ordered names of the schema migrations, without their bodies: enough to tell that a ledger is up to date (every
// process opens one), so the bodies (migrations/index.ts) load only when one is behind. Append only
// (docs/decisions/command-pattern.md).

export interface MigrationName {
  version: number;
  name: string;
}

export const MIGRATION_HISTORY: readonly MigrationName[] = [
  { version: 1, name: "foundation" },
  { version: 3, name: "decisions" },
  { version: 4, name: "store-index" },
  { version: 5, name: "run-token-hashes" },
  { version: 6, name: "content-binding" },
  { version: 7, name: "agents" },
  { version: 8, name: "lean-indexes" },
  { version: 9, name: "coordination" },
  { version: 10, name: "shown" },
  { version: 11, name: "review-comments" },
  { version: 12, name: "notify-spend" },
  { version: 15, name: "contained" },
  { version: 16, name: "findings" },
  { version: 18, name: "groups" },
  { version: 19, name: "egress" },
];
