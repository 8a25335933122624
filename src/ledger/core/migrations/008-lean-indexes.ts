// Migration 008: fewer pages per per-item report (issue 17). Bindings and obligations index only their active/owed rows,
// so settling one deletes one index entry instead of moving two, and the rare by-worker reads of active bindings
// (respawn, the listing) walk the active rows' own unique index instead of an index every report must update.

export const sql = /* sql */ `
DROP INDEX bindings_worker;
DROP INDEX bindings_dispatch;
CREATE INDEX bindings_active_dispatch ON bindings(dispatch) WHERE state = 'active';

DROP INDEX obligations_state;
CREATE INDEX obligations_owed ON obligations(due_at) WHERE state = 'owed';
`;
