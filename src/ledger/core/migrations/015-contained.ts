// Migration 015: whether the worker's current generation runs inside Docket's sandbox (docs/containment.md).
// Existing rows were never contained; a launch sets it for the generation it starts.

export const sql = /* sql */ `
ALTER TABLE workers ADD COLUMN contained INTEGER NOT NULL DEFAULT 0;
`;
