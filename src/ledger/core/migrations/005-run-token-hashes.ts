// Migration 005: the ledger keeps only sha256 of each run token, and only the names of a worker's --env variables.
// Existing plain tokens become their hashes (docket_sha256, registered by the migrator); --env values are dropped
// (docs/decisions/authority.md). secure_delete zeroes what the updates free, so the old values do not linger in free
// pages of the file.

export const sql = /* sql */ `
PRAGMA secure_delete = ON;
ALTER TABLE workers RENAME COLUMN run_token TO run_token_hash;
UPDATE workers SET run_token_hash = docket_sha256(run_token_hash);
ALTER TABLE launches RENAME COLUMN run_token TO run_token_hash;
UPDATE launches SET run_token_hash = docket_sha256(run_token_hash);
UPDATE workers SET env = (SELECT json_group_array(key) FROM json_each(workers.env)) WHERE json_type(env) = 'object';
PRAGMA secure_delete = OFF;
`;
