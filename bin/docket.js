#!/usr/bin/env node
// Entry point of the `docket` command; the TypeScript sources are compiled to dist/ by `npm ci` (prepare).
// `docket mcp` is its own surface (an MCP server on stdio); every other verb is the CLI's.
const { main } = process.argv[2] === "mcp" ? await import("../dist/src/surfaces/mcp/main.js") : await import("../dist/src/surfaces/cli/main.js");

process.exitCode = await main(process.argv.slice(process.argv[2] === "mcp" ? 3 : 2));
