// Migration 008: fewer pages per per-item report: bindings and obligations index only active/owed rows, so
// settling one deletes an index entry instead of moving two; by-worker reads of active bindings walk the active rows.

export const sql = /* sql */ `
DROP INDEX bindings_worker;
DROP INDEX bindings_dispatch;
CREATE INDEX bindings_active_dispatch ON bindings(dispatch) WHERE state = 'active';

DROP INDEX obligations_state;
CREATE INDEX obligations_owed ON obligations(due_at) WHERE state = 'owed';
`;
