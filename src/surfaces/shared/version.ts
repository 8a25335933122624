// The CLI's version: bin/docket.js prints package.json's for `docket --version`, and the tests hold the two equal.
export const VERSION = "0.1.0";
