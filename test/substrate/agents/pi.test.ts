// The pi launcher's parsing and settings reading (pure parts), plus locating the real pi CLI of our dependency.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseModelList, piDefaults, resolvePiCli, resolvePiExtraArgs } from "../../../src/substrate/agents/pi.js";
import { tempDir } from "../../support/temp.js";

test("pi's model table becomes provider/model refs with their reasoning flag", () => {
  const text = [
    "provider    model                 context  max-out  thinking  images",
    "faux        faux-1                128K     16.4K    no        no",
    "openrouter  anthropic/claude-x    200K     64K      yes       yes",
  ].join("\n");
  assert.deepEqual(parseModelList(text), [
    { ref: "faux/faux-1", reasoning: false },
    { ref: "openrouter/anthropic/claude-x", reasoning: true },
  ]);
  assert.deepEqual(parseModelList("No models available. Use /login"), []);
});

test("extra pi arguments come from config first, then DOCKET_PI_ARGS split on whitespace", () => {
  assert.deepEqual(resolvePiExtraArgs(["--offline"], "  -ne  -e /x/faux.js "), [
    "--offline",
    "-ne",
    "-e",
    "/x/faux.js",
  ]);
  assert.deepEqual(resolvePiExtraArgs([], undefined), []);
});

test("pi's configured default model and thinking are read from its settings.json", (t) => {
  const dir = tempDir(t);
  assert.deepEqual(piDefaults(dir), {});
  writeFileSync(
    join(dir, "settings.json"),
    JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1", defaultThinkingLevel: "low" }),
  );
  assert.deepEqual(piDefaults(dir), { model: "faux/faux-1", thinking: "low" });
  writeFileSync(
    join(dir, "settings.json"),
    JSON.stringify({ defaultProvider: "openrouter", defaultModel: "openrouter/x/y" }),
  );
  assert.deepEqual(piDefaults(dir), { model: "openrouter/x/y", thinking: undefined });
  writeFileSync(join(dir, "settings.json"), "{ not json");
  assert.deepEqual(piDefaults(dir), {});
});

test("the pi CLI is found inside the installed @mariozechner/pi-coding-agent package", () => {
  const cli = resolvePiCli();
  assert.match(cli, /@mariozechner\/pi-coding-agent\/dist\/cli\.js$/);
  assert.ok(existsSync(cli));
});

test("a fresh on-disk model listing under the same key is used instead of starting pi; any input change makes a new key", async (t) => {
  const { modelListKey, listModels, MODEL_CACHE_TTL_MS } = await import("../../../src/substrate/agents/pi.js");
  const { utimesSync } = await import("node:fs");
  const dir = tempDir(t);
  const ext = join(dir, "ext.ts");
  writeFileSync(ext, "export default function () {}\n");
  const env = { PI_CODING_AGENT_DIR: join(dir, "agent"), HOME: dir };
  const args = ["-ne", "-e", ext];
  const key = modelListKey(args, env, dir);
  const cacheFile = join(dir, "cache.json");
  const now = Date.parse("2026-01-01T00:00:00.000Z");
  writeFileSync(cacheFile, JSON.stringify({ key, at: now - 1000, models: [{ ref: "cached/model", reasoning: true }] }));
  assert.deepEqual(listModels(args, env, dir, { cacheFile, nowMs: now }), {
    models: [{ ref: "cached/model", reasoning: true }],
    cachedAt: now - 1000,
  });
  assert.ok(MODEL_CACHE_TTL_MS >= 60_000);
  utimesSync(ext, new Date(now + 60_000), new Date(now + 60_000));
  assert.notEqual(modelListKey(args, env, dir), key, "editing an extension changes the key");
  assert.notEqual(modelListKey(args, { ...env, ANTHROPIC_API_KEY: "x" }, dir), key, "a new credential changes the key");
  assert.notEqual(modelListKey([...args, "--offline"], env, dir), key);
});

test("the listing key ignores the files pi writes on its first run and a refreshed token, not a new provider or setting", async (t) => {
  const { modelListKey } = await import("../../../src/substrate/agents/pi.js");
  const { mkdirSync } = await import("node:fs");
  const dir = tempDir(t);
  const agent = join(dir, "agent");
  mkdirSync(agent);
  const env = { PI_CODING_AGENT_DIR: agent, HOME: dir };
  const key = () => modelListKey(["-ne"], env, dir);
  const fresh = key();
  writeFileSync(join(agent, "auth.json"), "{}");
  writeFileSync(join(agent, "settings.json"), JSON.stringify({ lastChangelogVersion: "0.73.1" }, null, 2));
  assert.equal(key(), fresh, "pi's own first-run files change nothing about its models");
  writeFileSync(join(agent, "auth.json"), JSON.stringify({ anthropic: { type: "oauth", access: "token-1" } }));
  const withAuth = key();
  assert.notEqual(withAuth, fresh, "credentials for a provider do");
  writeFileSync(join(agent, "auth.json"), JSON.stringify({ anthropic: { type: "oauth", access: "token-2" } }));
  assert.equal(key(), withAuth, "a refreshed token does not");
  writeFileSync(
    join(agent, "settings.json"),
    JSON.stringify({ lastChangelogVersion: "0.73.1", enabledModels: ["anthropic/x"] }),
  );
  assert.notEqual(key(), withAuth, "a real setting does");
});
