import { test } from "node:test";
import assert from "node:assert/strict";
import { isKeyName, resolveConfig } from "../../src/domain/config.js";

// The key pi binds to the fleet dashboard: F8 unless the human's own config names another key (or none).

test("the fleet key is f8 by default, any pi key name or empty from the user config, and never from a project", () => {
  assert.equal(resolveConfig(undefined, undefined).config.pi.fleetKey, "f8");
  assert.equal(resolveConfig({ pi: { fleetKey: "ctrl+shift+f" } }, undefined).config.pi.fleetKey, "ctrl+shift+f");
  assert.equal(resolveConfig({ pi: { fleetKey: "" } }, undefined).config.pi.fleetKey, "", "empty: no shortcut");
  const project = resolveConfig({ pi: { fleetKey: "f9" } }, { pi: { fleetKey: "ctrl+c" } });
  assert.equal(project.config.pi.fleetKey, "f9", "a repository cannot rebind the human's keys");
  assert.match(project.warnings.join("\n"), /project config pi.fleetKey ignored: only your user config sets your keys/);
  const bad = resolveConfig({ pi: { fleetKey: "#(touch /tmp/x)" } }, undefined);
  assert.equal(bad.config.pi.fleetKey, "f8");
  assert.match(bad.warnings.join("\n"), /pi.fleetKey must be a key such as "f8"/);
});

test("key names are pi's: modifiers, then a function key, a letter, a digit or a named key", () => {
  for (const k of ["f1", "f12", "a", "7", "alt+x", "ctrl+shift+pageDown", "escape"]) assert.ok(isKeyName(k), k);
  for (const k of ["f13", "F8", "ctrl+", "hyper+a", "ab", "ctrl+ctrl+ctrl+ctrl+a", " f8"]) assert.ok(!isKeyName(k), k);
});
