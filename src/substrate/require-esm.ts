// Whether this node's `require` loads an ES module (22.12 and later): a module a synchronous caller needs only on first
// use is then required at that moment; where it cannot, its user imports it with itself, as if it were not lazy.

export const requireLoadsEsm: boolean = process.features.require_module === true;
