// Legacy checkpoint bundles are read (listed, loaded, deleted one at a time) but their format is never written.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { homeLayout } from "../../../src/files/home.js";
import {
  deleteLegacyBundle,
  listLegacyBundles,
  parseLegacyRef,
  readLegacyBundle,
} from "../../../src/files/store/legacy-bundles.js";
import { isDocketError } from "../../../src/domain/errors.js";
import { tempDir } from "../../support/temp.js";
import { writeLegacyBundles } from "../../support/stored.js";

test("legacy bundles are listed from their .md files, with index titles and replayed events", (t) => {
  const home = homeLayout(tempDir(t));
  writeLegacyBundles(home);
  assert.deepEqual(
    listLegacyBundles(home).map((b) => [b.ref, b.title, b.consumed]),
    [["checkpoint:ckpt-auth", "Auth work", false]],
  );
  assert.deepEqual(
    listLegacyBundles(home, { includeConsumed: true }).map((b) => b.id),
    ["ckpt-auth", "ckpt-old"],
  );
});

test("a legacy bundle reads with its body and artifacts; unsafe names read as absent", (t) => {
  const home = homeLayout(tempDir(t));
  writeLegacyBundles(home);
  const read = readLegacyBundle(home, "ckpt-auth");
  assert.equal(read?.body, "# Auth checkpoint\n\nWhere we left the auth work.\n");
  assert.equal(read?.artifacts.length, 1);
  assert.equal(readLegacyBundle(home, "../checkpoints/ckpt-auth"), undefined);
  assert.equal(parseLegacyRef("checkpoint:../x"), undefined);
});

test("deleting a bundle removes its own files only; the old index and event log are never written", (t) => {
  const home = homeLayout(tempDir(t));
  writeLegacyBundles(home);
  const dir = join(home.root, "checkpoints");
  const index = readFileSync(join(dir, "index.json"), "utf8");
  const events = readFileSync(join(dir, "events.ndjson"), "utf8");
  const { paths } = deleteLegacyBundle(home, "ckpt-auth");
  assert.deepEqual(
    paths.map((p) => p.slice(dir.length + 1)),
    ["ckpt-auth.md", "ckpt-auth.artifacts.json"],
  );
  assert.equal(existsSync(join(dir, "ckpt-auth.md")), false);
  assert.equal(readFileSync(join(dir, "index.json"), "utf8"), index);
  assert.equal(readFileSync(join(dir, "events.ndjson"), "utf8"), events);
  assert.throws(
    () => deleteLegacyBundle(home, "ckpt-auth"),
    (e: unknown) => isDocketError(e) && e.code === "legacy-not-found",
  );
});

test("no checkpoints directory means no legacy bundles", (t) => {
  assert.deepEqual(listLegacyBundles(homeLayout(tempDir(t))), []);
});
