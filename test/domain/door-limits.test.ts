import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveConfig } from "../../src/domain/config.js";
import { DEFAULT_DOOR_LIMITS } from "../../src/domain/door-limits.js";

// What one worker may take of the door: the user's config sets any limit in range; a project may only lower.

test("the door's limits: defaults, any value in range from the user config, only lower from a project, warnings for the rest", () => {
  assert.deepEqual(resolveConfig(undefined, undefined).config.door, DEFAULT_DOOR_LIMITS);
  const raised = resolveConfig({ door: { maxCallBytes: 32 * 1024 * 1024, idleSeconds: 120 } }, undefined);
  assert.equal(raised.config.door.callBytes, 32 * 1024 * 1024);
  assert.equal(raised.config.door.idleSeconds, 120);
  assert.deepEqual(raised.warnings, []);

  const project = resolveConfig(
    { door: { maxChangeSetBytes: 8 * 1024 * 1024 } },
    { door: { maxChangeSetBytes: 16 * 1024 * 1024, maxConnectionsPerWorker: 4 } },
  );
  assert.equal(project.config.door.changeSetBytes, 8 * 1024 * 1024, "a cloned project cannot raise the cap");
  assert.equal(project.config.door.connectionsPerWorker, 4, "a project may lower a limit");
  assert.match(
    project.warnings.join("\n"),
    /project config door\.maxChangeSetBytes 16777216 would raise the limit 8388608; only your user config can/,
  );

  const bad = resolveConfig({ door: { maxCallBytes: 1, idleSeconds: "10", unknown: 1 } }, undefined);
  assert.deepEqual(bad.config.door, DEFAULT_DOOR_LIMITS);
  assert.match(bad.warnings.join("\n"), /door\.maxCallBytes must be a whole number from 65536 to 67108864; ignored/);
  assert.match(bad.warnings.join("\n"), /door\.idleSeconds must be a whole number from 1 to 3600; ignored/);
  assert.match(bad.warnings.join("\n"), /door\.unknown is not a door setting/);
  assert.match(
    resolveConfig({ door: 5 }, undefined).warnings.join("\n"),
    /user config door must be an object; ignored/,
  );
  assert.equal(DEFAULT_DOOR_LIMITS.callBytes, 8 * 1024 * 1024, "resolving never changed the defaults themselves");
});
