// The spawn-policy resolver, row by row: every precedence row of docs/decisions/spawn-policy.md, every abort and
// confirmation rule.

import { test } from "node:test";
import assert from "node:assert/strict";
import { DocketError } from "../../../src/domain/errors.js";
import { buildKindRegistry } from "../../../src/domain/workers/kinds.js";
import { resolveSpawnPolicy, splitModelRef, type SpawnPolicyInput } from "../../../src/domain/workers/spawn-policy.js";

const legacyFile = (name: string, frontmatter: string) => ({
  source: "user" as const,
  path: `/kinds/${name}.md`,
  text: `---\nname: ${name}\n${frontmatter}\n---\nbody\n`,
});

const { kinds } = buildKindRegistry([
  legacyFile("old-model", "model: openrouter/meta/llama-3"),
  legacyFile("old-think", "thinking: high"),
  legacyFile("old-both", "model: openrouter/meta/llama-3\nthinking: high"),
  legacyFile("old-seed", "parent_seed: full"),
  legacyFile("old-seed-fresh", "parent_seed: fresh"),
  legacyFile("old-tree", "read_only: true\ndefault_worktree: true"),
  legacyFile("old-shared", "default_worktree: false"),
  legacyFile("writer", "plan_gate: false"),
]);

const PARENT = { model: "anthropic/claude-sonnet-4", thinking: "medium", sessionFile: "/sessions/parent.jsonl" };
const MODELS = [
  { ref: "anthropic/claude-sonnet-4", reasoning: true },
  { ref: "openrouter/meta/llama-3", reasoning: false },
  { ref: "faux/faux-1", reasoning: true },
];

function input(over: Partial<SpawnPolicyInput> = {}): SpawnPolicyInput {
  return {
    agent: "pi",
    interactive: true,
    yes: false,
    config: {},
    kinds,
    parent: PARENT,
    availableModels: MODELS,
    ...over,
  };
}

/** One test per row: what the row's input resolves to, picked as `pick` picks it, is the rest of the row. */
function precedence(
  topic: string,
  rows: [string, Partial<SpawnPolicyInput>, ...unknown[]][],
  pick: (r: ReturnType<typeof resolveSpawnPolicy>) => unknown[],
): void {
  for (const [name, over, ...expected] of rows) {
    test(`${topic}: ${name}`, () => assert.deepEqual(pick(resolveSpawnPolicy(input(over))), expected));
  }
}

function refused(over: Partial<SpawnPolicyInput>, message: RegExp): void {
  assert.throws(
    () => resolveSpawnPolicy(input(over)),
    (e: unknown) =>
      e instanceof DocketError && e.code === "spawn-policy" && e.category === "validation" && message.test(e.message),
  );
}

test("a bare spawn takes the built-in default kind and the parent's model, thinking, fresh context, isolated workspace", () => {
  const r = resolveSpawnPolicy(input());
  assert.deepEqual(
    [
      r.kind,
      r.kindSource,
      r.model,
      r.modelSource,
      r.thinking,
      r.thinkingSource,
      r.context,
      r.contextSource,
      r.workspace,
      r.workspaceSource,
    ],
    [
      "default",
      "built-in default",
      PARENT.model,
      "parent model",
      "medium",
      "parent thinking",
      "fresh",
      "default",
      "isolated",
      "writable kind",
    ],
  );
  assert.equal(r.planGate, true);
  assert.equal(r.readOnly, false);
  assert.deepEqual(r.confirm, { needed: false, reasons: [] });
  assert.deepEqual(r.legacyContributions, []);
  assert.deepEqual(r.warnings, []);
  assert.deepEqual(r.summary, [
    "Kind: default · plan-gated",
    `Model: ${PARENT.model} (parent model)`,
    "Thinking: medium (parent thinking)",
    "Context: fresh (default)",
    "Workspace: isolated worker workspace (writable kind)",
  ]);
});

const kindRows: [string, Partial<SpawnPolicyInput>, string, string][] = [
  ["--as beats worker.defaultKind", { kindFlag: "scout", config: { defaultKind: "patcher" } }, "scout", "--as"],
  ["--as is normalized (case, spaces)", { kindFlag: " Scout " }, "scout", "--as"],
  [
    "worker.defaultKind beats the built-in default",
    { config: { defaultKind: "patcher" } },
    "patcher",
    "config worker.defaultKind",
  ],
  [
    "a handoff's kind choice is labelled as such",
    { kindFlag: "implementer", handoff: true },
    "implementer",
    "handoff choice",
  ],
];
precedence("kind precedence", kindRows, (r) => [r.kind, r.kindSource]);

test("an unknown --as kind aborts and lists the known kinds instead of falling back", () => {
  refused(
    { kindFlag: "wizard" },
    /^unknown kind "wizard"; known kinds: architect, default, implementer, old-both, .*scout, writer$/,
  );
});

test("an unknown worker.defaultKind warns and falls back to the built-in default", () => {
  const r = resolveSpawnPolicy(input({ config: { defaultKind: "ghost" } }));
  assert.equal(r.kind, "default");
  assert.equal(r.kindSource, "built-in default");
  assert.match(r.warnings.join("\n"), /worker\.defaultKind "ghost" is not a known kind/);
});

const modelRows: [string, Partial<SpawnPolicyInput>, string, string, string[]][] = [
  [
    "--model beats the legacy kind model and the parent",
    { modelFlag: "faux/faux-1", kindFlag: "old-model" },
    "faux/faux-1",
    "--model",
    [],
  ],
  [
    "a legacy kind model beats the parent model",
    { kindFlag: "old-model", thinkingFlag: "off" },
    "openrouter/meta/llama-3",
    "legacy kind model (old-model)",
    ["model"],
  ],
  ["the parent model is the last source", {}, PARENT.model, "parent model", []],
  [
    "a handoff's model choice is labelled as such",
    { modelFlag: "faux/faux-1", handoff: true },
    "faux/faux-1",
    "handoff choice",
    [],
  ],
];
precedence("model precedence", modelRows, (r) => [r.model, r.modelSource, r.legacyContributions]);

test("model refs split at the first slash, so a model id may itself contain slashes", () => {
  assert.deepEqual(splitModelRef("openrouter/meta/llama-3"), { provider: "openrouter", model: "meta/llama-3" });
  assert.equal(splitModelRef("llama"), undefined);
  assert.equal(splitModelRef("/llama"), undefined);
  assert.equal(splitModelRef("openrouter/"), undefined);
  const r = resolveSpawnPolicy(input({ modelFlag: "openrouter/meta/llama-3", thinkingFlag: "off" }));
  assert.equal(r.model, "openrouter/meta/llama-3");
});

test("a model must match an available provider/model exactly", () => {
  refused(
    { modelFlag: "openrouter/meta" },
    /^model openrouter\/meta \(--model\) is not an available pi model; available: anthropic\/claude-sonnet-4, openrouter\/meta\/llama-3, faux\/faux-1$/,
  );
  refused({ modelFlag: "Faux/faux-1" }, /is not an available pi model/);
  refused({ modelFlag: "llama" }, /^model "llama" \(--model\) is not a provider\/model reference$/);
});

test("an unavailable parent model aborts too, naming where it came from", () => {
  refused(
    { parent: { ...PARENT, model: "gone/model" } },
    /^model gone\/model \(parent model\) is not an available pi model/,
  );
});

test("no model from any source aborts", () => {
  refused({ parent: { thinking: "low" } }, /^No worker model resolved/);
});

const thinkingRows: [string, Partial<SpawnPolicyInput>, string, string][] = [
  [
    "--thinking beats the legacy kind thinking and the parent",
    { thinkingFlag: "low", kindFlag: "old-think" },
    "low",
    "--thinking",
  ],
  ["--thinking is case-insensitive", { thinkingFlag: "XHigh" }, "xhigh", "--thinking"],
  [
    "a legacy kind thinking beats the parent thinking",
    { kindFlag: "old-think" },
    "high",
    "legacy kind thinking (old-think)",
  ],
  ["the parent thinking is the last source", {}, "medium", "parent thinking"],
  [
    "no parent thinking resolves to off",
    { parent: { model: PARENT.model } },
    "off",
    "default (your pi has no thinking level)",
  ],
  [
    "explicit off on a non-reasoning model is fine",
    { modelFlag: "openrouter/meta/llama-3", thinkingFlag: "off" },
    "off",
    "--thinking",
  ],
];
precedence("thinking precedence", thinkingRows, (r) => [r.thinking, r.thinkingSource]);

test("an invalid thinking level aborts", () => {
  refused({ thinkingFlag: "max" }, /^thinking level "max" is not one of off, minimal, low, medium, high, xhigh$/);
});

test("explicit non-off thinking on a non-reasoning model aborts and says to use --thinking off", () => {
  refused(
    { modelFlag: "openrouter/meta/llama-3", thinkingFlag: "high" },
    /^model openrouter\/meta\/llama-3 does not support thinking, but --thinking asks for high; use --thinking off$/,
  );
});

test("legacy kind thinking counts as explicit: non-off on a non-reasoning model aborts", () => {
  refused(
    { kindFlag: "old-both" },
    /does not support thinking, but legacy kind thinking \(old-both\) asks for high; use --thinking off/,
  );
});

test("inherited thinking on a non-reasoning model resolves visibly to off", () => {
  const r = resolveSpawnPolicy(input({ modelFlag: "openrouter/meta/llama-3" }));
  assert.equal(r.thinking, "off");
  assert.equal(r.thinkingSource, "parent thinking");
  assert.ok(
    r.summary.includes("Thinking adjusted: inherited medium resolved to off: openrouter/meta/llama-3 has no reasoning"),
  );
});

const contextRows: [string, Partial<SpawnPolicyInput>, "fresh" | "seeded", string, string | undefined][] = [
  [
    "a handoff is always fresh, even with --seed and a full policy",
    { handoff: true, seedFile: "/s/x.jsonl", config: { parentSeedPolicy: "full" } },
    "fresh",
    "handoff (always fresh)",
    undefined,
  ],
  ["--fresh beats --seed", { fresh: true, seedFile: "/s/x.jsonl" }, "fresh", "--fresh", undefined],
  [
    "--seed beats worker.parentSeedPolicy",
    { seedFile: "/s/x.jsonl", config: { parentSeedPolicy: "fresh" } },
    "seeded",
    "--seed",
    "/s/x.jsonl",
  ],
  ["an empty --seed seeds from the parent session", { seedFile: "" }, "seeded", "--seed", PARENT.sessionFile],
  [
    "worker.parentSeedPolicy full seeds from the parent session",
    { config: { parentSeedPolicy: "full" } },
    "seeded",
    "config worker.parentSeedPolicy",
    PARENT.sessionFile,
  ],
  [
    "worker.parentSeedPolicy fresh beats a legacy parent_seed",
    { kindFlag: "old-seed", config: { parentSeedPolicy: "fresh" } },
    "fresh",
    "config worker.parentSeedPolicy",
    undefined,
  ],
  [
    "a legacy parent_seed full seeds",
    { kindFlag: "old-seed" },
    "seeded",
    "legacy kind parent_seed (old-seed)",
    PARENT.sessionFile,
  ],
  [
    "a legacy parent_seed fresh stays fresh",
    { kindFlag: "old-seed-fresh" },
    "fresh",
    "legacy kind parent_seed (old-seed-fresh)",
    undefined,
  ],
  ["nothing asks for seeding: fresh", {}, "fresh", "default", undefined],
];
precedence("context precedence", contextRows, (r) => [r.context, r.contextSource, r.seedFile]);

test("a seed ignored by a handoff or by --fresh says so in the warnings", () => {
  assert.deepEqual(resolveSpawnPolicy(input({ handoff: true, seedFile: "/s/x.jsonl" })).warnings, [
    "--seed ignored: a handoff worker always starts fresh",
  ]);
  assert.deepEqual(resolveSpawnPolicy(input({ fresh: true, seedFile: "/s/x.jsonl" })).warnings, [
    "--seed ignored because --fresh was given",
  ]);
});

test("seeding requested without a parent session file warns and launches fresh", () => {
  const r = resolveSpawnPolicy(
    input({ config: { parentSeedPolicy: "full" }, parent: { model: PARENT.model, thinking: "medium" } }),
  );
  assert.equal(r.context, "fresh");
  assert.equal(r.seedFile, undefined);
  assert.deepEqual(r.warnings, [
    "seeding requested by config worker.parentSeedPolicy but your pi session has no session file; starting fresh",
  ]);
  const bare = resolveSpawnPolicy(input({ seedFile: "", parent: { model: PARENT.model, thinking: "medium" } }));
  assert.equal(bare.context, "fresh");
  assert.match(bare.warnings[0]!, /^seeding requested by --seed but your pi session has no session file/);
});

const workspaceRows: [string, Partial<SpawnPolicyInput>, "isolated" | "shared", string, string[]][] = [
  ["--worktree beats a read-only kind", { kindFlag: "scout", worktree: true }, "isolated", "--worktree", []],
  [
    "--worktree beats a legacy default_worktree false",
    { kindFlag: "old-shared", worktree: true },
    "isolated",
    "--worktree",
    [],
  ],
  [
    "a legacy default_worktree true isolates a read-only kind",
    { kindFlag: "old-tree" },
    "isolated",
    "legacy kind default_worktree (old-tree)",
    ["default_worktree"],
  ],
  [
    "a legacy default_worktree false shares a writable kind",
    { kindFlag: "old-shared" },
    "shared",
    "legacy kind default_worktree (old-shared)",
    ["default_worktree"],
  ],
  ["a read-only kind shares the parent directory", { kindFlag: "scout" }, "shared", "read-only kind", []],
  ["a writable kind gets an isolated workspace", { kindFlag: "writer" }, "isolated", "writable kind", []],
];
precedence("workspace precedence", workspaceRows, (r) => [r.workspace, r.workspaceSource, r.legacyContributions]);

const confirmRows: [string, Partial<SpawnPolicyInput>, string[]][] = [
  ["a bare same-parent spawn asks nothing", { kindFlag: "scout" }, []],
  [
    "choosing the parent's own model and thinking asks nothing",
    { modelFlag: PARENT.model, thinkingFlag: "medium" },
    [],
  ],
  [
    "a different model asks",
    { modelFlag: "faux/faux-1" },
    ["model faux/faux-1 differs from your pi's anthropic/claude-sonnet-4"],
  ],
  ["a different thinking level asks", { thinkingFlag: "high" }, ["thinking high differs from your pi's medium"]],
  [
    "inherited thinking resolved to off asks, because it differs",
    { modelFlag: "openrouter/meta/llama-3" },
    [
      "model openrouter/meta/llama-3 differs from your pi's anthropic/claude-sonnet-4",
      "thinking off differs from your pi's medium",
    ],
  ],
  [
    "a contributing legacy default asks",
    { kindFlag: "old-seed" },
    ["deprecated kind defaults contributed: parent_seed"],
  ],
  ["a handoff always asks", { handoff: true, kindFlag: "implementer" }, ["reviewed handoff worker"]],
];
for (const [name, over, reasons] of confirmRows) {
  test(`confirmation: ${name}`, () => {
    const r = resolveSpawnPolicy(input(over));
    assert.deepEqual(r.confirm, { needed: reasons.length > 0, reasons });
  });
}

test("--yes and non-interactive runs never wait: the summary says confirmation was not asked and why", () => {
  const yes = resolveSpawnPolicy(input({ modelFlag: "faux/faux-1", yes: true }));
  assert.equal(yes.confirm.needed, true);
  assert.equal(
    yes.summary.at(-1),
    "Confirmation not asked (--yes): model faux/faux-1 differs from your pi's anthropic/claude-sonnet-4",
  );
  const batch = resolveSpawnPolicy(input({ handoff: true, interactive: false }));
  assert.equal(batch.summary.at(-1), "Confirmation not asked (non-interactive): reviewed handoff worker");
  const interactive = resolveSpawnPolicy(input({ modelFlag: "faux/faux-1" }));
  assert.ok(!interactive.summary.some((l) => l.startsWith("Confirmation not asked")));
});

test("a legacy default that contributes is named in the summary and the kind's deprecation warning is surfaced", () => {
  const r = resolveSpawnPolicy(input({ kindFlag: "old-model", thinkingFlag: "off" }));
  assert.ok(
    r.summary.includes(
      "Deprecated kind defaults: model from /kinds/old-model.md; move them to spawn flags or worker config before the next major release",
    ),
  );
  assert.match(r.warnings.join("\n"), /^kind old-model: deprecated execution frontmatter \(model\)/);
});

test("a legacy model overridden by --model contributes nothing and asks nothing extra", () => {
  const r = resolveSpawnPolicy(input({ kindFlag: "old-model", modelFlag: PARENT.model }));
  assert.deepEqual(r.legacyContributions, []);
  assert.deepEqual(r.confirm, { needed: false, reasons: [] });
  assert.ok(!r.summary.some((l) => l.startsWith("Deprecated kind defaults")));
});

test("a command agent needs no model: model null, thinking off, never seeded", () => {
  const r = resolveSpawnPolicy(
    input({ agent: "command", kindFlag: "old-both", parent: {}, availableModels: [], seedFile: "/s/x.jsonl" }),
  );
  assert.equal(r.model, null);
  assert.equal(r.thinking, "off");
  assert.equal(r.context, "fresh");
  assert.match(r.warnings.join("\n"), /command agents cannot be seeded/);
  assert.deepEqual(r.confirm, { needed: false, reasons: [] });
  assert.deepEqual(r.summary.slice(1, 3), ["Model: none (command agent)", "Thinking: off (command agent)"]);
});

test("--model or --thinking with a command agent aborts rather than being ignored", () => {
  refused({ agent: "command", modelFlag: "faux/faux-1" }, /^--model does not apply to --agent command workers/);
  refused({ agent: "command", thinkingFlag: "high" }, /^--thinking does not apply to --agent command workers/);
});

test("every resolved value carries a non-empty source, and the summary has one line per concern", () => {
  const r = resolveSpawnPolicy(input({ kindFlag: "old-tree", seedFile: "/s/a.jsonl" }));
  for (const s of [r.kindSource, r.modelSource, r.thinkingSource, r.contextSource, r.workspaceSource])
    assert.ok(s.length > 0);
  assert.deepEqual(
    r.summary.slice(0, 5).map((l) => l.split(":")[0]),
    ["Kind", "Model", "Thinking", "Context", "Workspace"],
  );
  assert.equal(r.summary[0], "Kind: old-tree · read-only · user kind");
  assert.equal(r.summary[3], "Context: seeded from your pi session /s/a.jsonl (--seed)");
});

test("a parent thinking level Docket does not know resolves visibly to off, with a warning", () => {
  const r = resolveSpawnPolicy(input({ parent: { ...PARENT, thinking: "max" } }));
  assert.equal(r.thinking, "off");
  assert.deepEqual(r.warnings, [
    'parent thinking level "max" is not one of off, minimal, low, medium, high, xhigh; using off',
  ]);
  assert.ok(r.summary.includes("Thinking adjusted: inherited max is not a level Docket knows; resolved to off"));
  assert.deepEqual(r.confirm.reasons, ["thinking off differs from your pi's max"]);
});

test("a kind that replaced a built-in says so at spawn time", () => {
  const replaced = buildKindRegistry([{ source: "user", path: "/p/scout.md", text: "---\nname: scout\n---\n" }]).kinds;
  const r = resolveSpawnPolicy(input({ kinds: replaced, kindFlag: "scout" }));
  assert.equal(r.summary[0], "Kind: scout · writable · user kind");
  assert.deepEqual(r.warnings, ["kind scout: replaces the built-in kind scout"]);
});

test("a pi --model with a leading or trailing space is refused, never trimmed into a listed model (exact match)", () => {
  for (const flag of [" faux/faux-1", "faux/faux-1 ", "\tfaux/faux-1", "faux/faux-1\n"])
    refused({ modelFlag: flag }, /has spaces around it; a model ref must match exactly/);
  assert.equal(resolveSpawnPolicy(input({ modelFlag: "faux/faux-1" })).model, "faux/faux-1");
});
