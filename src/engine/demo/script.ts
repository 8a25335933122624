// The demo's scratch project and the scripted model's replies for its two workers (an architect, an implementer).
// Plain data: what a real model would do, written down so the whole loop runs without a key or a network.

export const DEMO_FILES: Record<string, string> = {
  "greet.js": 'export function greet() {\n  return "Hello, world";\n}\n',
  "test.js":
    'import { greet } from "./greet.js";\nif (greet() !== "Hello, world") throw new Error("greet() changed");\nconsole.log("ok");\n',
  "README.md": "# greeter\n\nA tiny module that says hello.\n",
  "package.json": '{ "name": "greeter", "type": "module", "private": true }\n',
};

export const DEMO_ITEMS = ["Greet people by name", "Document the greeting in the README"];

export const DEMO_PLAN = [
  "# Plan: greet people by name",
  "",
  "## Goal",
  "Let greet() say hello to a named person, keeping the old greeting as the default.",
  "",
  "## Constraints",
  "- No new dependencies.",
  '- greet() with no argument still returns "Hello, world".',
  "",
  "## Steps",
  "1. Give greet an optional name parameter. files: greet.js",
  "2. Cover both forms in the smoke test. files: test.js",
  "3. Document greet(name) in the README. files: README.md",
  "",
  "## Verification",
  "- node test.js prints ok.",
  "",
  "## Risks",
  "- Callers passing a non-string name get it stringified.",
].join("\n");

/** The architect reads the code, then publishes the whole plan in the same response that calls docket_done. */
export function architectScript(): unknown[] {
  return [
    { text: "Reading the project first.", toolCall: { name: "read", arguments: { path: "greet.js" } } },
    {
      text: DEMO_PLAN,
      toolCall: {
        name: "docket_done",
        id: "demo-plan-1",
        arguments: {
          outcome: "proposal",
          summary: "Plan: greet people by name in three steps",
          evidence: [{ kind: "note", text: "read greet.js, test.js and README.md; no callers pass arguments today" }],
          recommendations: ["Implement with the implementer kind; the plan names every file it touches."],
          items: [],
        },
      },
    },
    { text: "The plan is published for review." },
  ];
}

export const GREET_V2 = 'export function greet(name) {\n  return `Hello, ${name ?? "world"}`;\n}\n';
export const TEST_V2 =
  'import { greet } from "./greet.js";\nif (greet() !== "Hello, world") throw new Error("default greeting changed");\nif (greet("Ada") !== "Hello, Ada") throw new Error("named greeting wrong");\nconsole.log("ok");\n';
export const README_V2 =
  '# greeter\n\nA tiny module that says hello.\n\n```js\ngreet();       // Hello, world\ngreet("Ada");  // Hello, Ada\n```\n';

/** The implementer publishes the plan's steps, edits the three planned files, and reports each item. */
export function implementerScript(items: readonly string[]): unknown[] {
  return [
    {
      text: "Publishing the approved plan's steps.",
      toolCall: {
        name: "docket_todos",
        arguments: {
          items: [
            { id: "s1", text: "Give greet an optional name parameter", state: "in_progress" },
            { id: "s2", text: "Cover both forms in the smoke test", state: "pending" },
            { id: "s3", text: "Document greet(name) in the README", state: "pending" },
          ],
        },
      },
    },
    {
      text: "Editing the planned files.",
      toolCalls: [
        { name: "write", arguments: { path: "greet.js", content: GREET_V2 } },
        { name: "write", arguments: { path: "test.js", content: TEST_V2 } },
        { name: "write", arguments: { path: "README.md", content: README_V2 } },
      ],
    },
    { text: "Running the smoke test.", toolCall: { name: "bash", arguments: { command: "node test.js" } } },
    {
      text: [
        "Implemented the approved plan.",
        "",
        "- greet(name) returns `Hello, <name>` and keeps `Hello, world` as the default (greet.js).",
        "- The smoke test covers both forms (test.js); `node test.js` prints ok.",
        "- The README documents greet(name).",
      ].join("\n"),
      toolCall: {
        name: "docket_done",
        id: "demo-impl-1",
        arguments: {
          outcome: "completed",
          summary: "greet(name) implemented, tested and documented",
          evidence: [
            { kind: "test", text: "node test.js → ok" },
            { kind: "note", text: "not committed; the frozen patch is for review and promotion" },
          ],
          recommendations: [],
          items: [
            {
              item: items[0],
              outcome: "done",
              body: "greet(name) greets by name; greet() is unchanged.",
              evidence: [{ kind: "test", text: "node test.js → ok" }],
            },
            { item: items[1], outcome: "done", body: 'README shows greet() and greet("Ada").' },
          ],
        },
      },
    },
    { text: "Done: the deliverable is ready for review." },
  ];
}
