// The worker protocol's wire: one TypeBox schema per call, with the words a model reads, for every door — the pi
// tools, `docket worker …` and `docket mcp` (one schema, three doors: docs/decisions/worker-protocol.md). Types derive
// from the schemas.

import { Type, type Static, type TSchema, type TUnsafe } from "typebox";
import { Value } from "typebox/value";
import { DONE_OUTCOMES } from "../../domain/deliverables/deliverable.js";
import { validationError } from "../../domain/errors.js";
import { EVIDENCE_KINDS, REPORT_OUTCOMES } from "../../domain/work/report.js";
import { TODO_STATES } from "../../domain/workers/todos.js";
import { CONSULT_PURPOSE } from "../../domain/talk/consult.js";

/** A string enum as a flat `{type: "string", enum}` (what every model provider accepts; no anyOf of consts). */
function StringEnum<const T extends readonly string[]>(values: T, description?: string): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...(description ? { description } : {}) });
}

export const EvidenceWire = Type.Object({
  kind: StringEnum(
    EVIDENCE_KINDS,
    "commit (sha, where pushed) | test (command and result) | artifact (built/installed/served) | runtime (the running thing was checked) | note",
  ),
  text: Type.String({ description: "what exactly; a passing test is not a restarted service" }),
});

export const ItemReportWire = Type.Object({
  item: Type.String({ description: "a dispatched item id: t<N> or r<N>" }),
  outcome: StringEnum(REPORT_OUTCOMES, "done | released | abandoned | blocked"),
  body: Type.String({ description: "what happened to this item (non-empty)" }),
  evidence: Type.Optional(Type.Array(EvidenceWire)),
  forHuman: Type.Optional(Type.Array(Type.String())),
  answers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "reply id → your answer" })),
});

export const AddressedWire = Type.Object({
  comment: Type.String({ description: "the review comment's id, e.g. cm3" }),
  note: Type.String({ description: "what you did about it" }),
});

export const BlockedWire = Type.Object({ item: Type.String(), body: Type.String() });

export const TodoWire = Type.Object({
  id: Type.Optional(Type.String()),
  text: Type.String(),
  state: Type.Optional(StringEnum(TODO_STATES)),
});

const doneFields = {
  outcome: StringEnum(
    DONE_OUTCOMES,
    "completed (work done) | findings (what you found) | proposal (a plan or design for approval)",
  ),
  summary: Type.String({ description: "one line for the human" }),
  evidence: Type.Optional(Type.Array(EvidenceWire, { description: "typed evidence, stored as given" })),
  recommendations: Type.Optional(Type.Array(Type.String(), { description: "what the human should do next" })),
  items: Type.Optional(Type.Array(ItemReportWire, { description: "one report per dispatched item" })),
  addressed: Type.Optional(
    Type.Array(AddressedWire, {
      description: "your answer to each review comment of the revision you worked on (ids from the revision message)",
    }),
  ),
};

/** docket_done where the body is the text of the message holding the call (pi). */
export const DoneWire = Type.Object(doneFields);
/** docket_done where the body is an argument (agents without "the message that holds the call": MCP). */
export const DoneWithBodyWire = Type.Object({
  body: Type.String({
    description: "the FULL deliverable text, exactly as the human should read it; never a pointer to elsewhere",
  }),
  ...doneFields,
});

export const WaitWire = Type.Object({
  question: Type.String({ description: "the one question for the human" }),
  options: Type.Optional(Type.Array(Type.String(), { description: "2–4 possible answers" })),
  recommend: Type.Optional(Type.String({ description: "the answer you recommend" })),
  risk: Type.Optional(Type.String({ description: "what goes wrong with the wrong answer" })),
  blocked: Type.Optional(Type.Array(BlockedWire, { description: "items you cannot progress until answered" })),
});

export const TodosWire = Type.Object({
  items: Type.Array(TodoWire, { description: "the whole board (at most 12); replaces the previous one" }),
});

export const FailWire = Type.Object({ reason: Type.String({ description: "what stopped you" }) });

export const ConsultWire = Type.Object({
  question: Type.String({ description: "the one question of fact for the parent agent" }),
  context: Type.Optional(Type.String({ description: "what you already know and why you ask" })),
  options: Type.Optional(Type.Array(Type.String(), { description: "possible answers, if you have them" })),
  recommend: Type.Optional(Type.String({ description: "the answer you expect" })),
});

export const NoteWire = Type.Object({
  text: Type.String({ description: "what the human (and perhaps other workers) should know" }),
  to: Type.Optional(
    Type.Array(Type.String(), {
      description: "workers (w<N>) you suggest the human tells; a suggestion only, nothing is sent to them",
    }),
  ),
});

export type EvidenceArgs = Static<typeof EvidenceWire>;
export type ItemReportArgs = Static<typeof ItemReportWire>;
export type BlockedArgs = Static<typeof BlockedWire>;
export type TodoArgs = Static<typeof TodoWire>;
export type DoneArgs = Static<typeof DoneWire>;
export type DoneWithBodyArgs = Static<typeof DoneWithBodyWire>;
export type WaitArgs = Static<typeof WaitWire>;
export type TodosArgs = Static<typeof TodosWire>;
export type FailArgs = Static<typeof FailWire>;
export type ConsultArgs = Static<typeof ConsultWire>;
export type NoteArgs = Static<typeof NoteWire>;

/** How the body of docket_done reaches Docket: the message holding the call (pi), or the `body` argument. */
export type BodySource = "message" | "argument";

export interface WorkerCall<S extends TSchema = TSchema> {
  name: string;
  label: string;
  description: string;
  parameters: S;
  /** The call ends the worker's turn (the agent should stop and wait). */
  endsTurn: boolean;
}

const DONE_ABOUT = "Publish your result as one frozen deliverable version for the human to review.";
const DONE_AFTER = "Your workspace changes are frozen with it. Calling again later publishes a new version.";

const DONE_DESCRIPTION: Record<BodySource, string> = {
  message: `${DONE_ABOUT} Write the FULL deliverable text in the same message as this call: that text is the deliverable body. ${DONE_AFTER}`,
  argument: `${DONE_ABOUT} Put the FULL deliverable text in \`body\`: that argument is the deliverable body, stored byte for byte (your chat text is not). ${DONE_AFTER}`,
};

/** The protocol's calls as every door lists them; a new call (consult, note) is one more entry here. */
export function workerCalls(body: "message"): ReturnType<typeof callsWith<typeof DoneWire>>;
export function workerCalls(body: "argument"): ReturnType<typeof callsWith<typeof DoneWithBodyWire>>;
export function workerCalls(body: BodySource) {
  return body === "message"
    ? callsWith(DoneWire, DONE_DESCRIPTION.message)
    : callsWith(DoneWithBodyWire, DONE_DESCRIPTION.argument);
}

function callsWith<D extends TSchema>(done: D, doneDescription: string) {
  return {
    done: {
      name: "docket_done",
      label: "Docket: done",
      description: doneDescription,
      parameters: done,
      endsTurn: false,
    },
    wait: {
      name: "docket_wait",
      label: "Docket: wait",
      description:
        "Ask the human one question and stop until they answer. Use options, recommend and risk to make the choice quick. Name items you are blocked on in `blocked`.",
      parameters: WaitWire,
      endsTurn: true,
    },
    todos: {
      name: "docket_todos",
      label: "Docket: todos",
      description:
        "Replace your visible progress board (at most 12 items: pending, in_progress, completed). Informational only: it never blocks docket_done.",
      parameters: TodosWire,
      endsTurn: false,
    },
    fail: {
      name: "docket_fail",
      label: "Docket: fail",
      description:
        "Give up on the task: you become failed and publish no deliverable. Use only when there is no useful partial result.",
      parameters: FailWire,
      endsTurn: true,
    },
    consult: {
      name: "docket_consult",
      label: "Docket: consult",
      description: CONSULT_PURPOSE,
      parameters: ConsultWire,
      endsTurn: true,
    },
    note: {
      name: "docket_note",
      label: "Docket: note",
      description:
        "Leave the human a short notice (something others may need to know: a shared file you changed, a convention you found). It does not stop you, changes nothing, and reaches no other worker unless the human forwards it. Never put your deliverable here: that goes in docket_done.",
      parameters: NoteWire,
      endsTurn: false,
    },
  } satisfies Record<string, WorkerCall>;
}

/**
 * The value typed by `schema`, or one validation error naming the first wrong field (`what` names the input, e.g.
 * `docket_done` or `items.json entry 2`). Nothing is coerced except what TypeBox's Convert does for numbers/strings.
 */
export function parseWire<S extends TSchema>(schema: S, value: unknown, what: string): Static<S> {
  const copy = structuredClone(value);
  const converted = Value.Convert(schema, copy);
  if (Value.Check(schema, converted)) return converted;
  const first = Value.Errors(schema, converted)[0];
  const path = first ? wirePath(first) : "";
  throw validationError(
    "wire-invalid",
    `${what}: ${path ? `${path} ` : ""}${first?.message ?? "does not match its schema"}`,
  );
}

function wirePath(error: { keyword: string; instancePath: string; params: unknown }): string {
  const base = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const missing =
    error.keyword === "required"
      ? (error.params as { requiredProperties?: string[] }).requiredProperties?.[0]
      : undefined;
  return missing ? (base ? `${base}.${missing}` : missing) : base;
}
