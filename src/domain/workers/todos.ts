// The worker's progress board (`docket_todos`): bounded, whitespace-collapsed, ids sanitised, known states only.
// It is informational and never gates `docket_done` (docs/decisions/worker-protocol.md); the whole board is replaced on
// each call.

import { validationError } from "../errors.js";

export const TODO_STATES = ["pending", "in_progress", "completed"] as const;
export type TodoState = (typeof TODO_STATES)[number];

export const MAX_TODOS = 12;
export const MAX_TODO_TEXT = 200;
export const MAX_TODO_ID = 32;

export interface TodoInput {
  id?: string;
  text: string;
  state?: string;
}

export interface Todo {
  id: string;
  text: string;
  state: TodoState;
}

export interface ResolvedTodos {
  todos: Todo[];
  /** Entries dropped: empty text, or beyond the first MAX_TODOS. */
  dropped: number;
}

const LEGACY_STATES: Record<string, TodoState> = {
  todo: "pending",
  active: "in_progress",
  done: "completed",
  in_progress: "in_progress",
};

function resolveState(value: string | undefined, index: number): TodoState {
  if (value === undefined || value === null) return "pending";
  const v = String(value)
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  if ((TODO_STATES as readonly string[]).includes(v)) return v as TodoState;
  const legacy = LEGACY_STATES[v];
  if (legacy) return legacy;
  throw validationError(
    "todo-state-invalid",
    `todo ${index + 1} has state "${value}"; use one of ${TODO_STATES.join(", ")}`,
  );
}

export function collapseText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Sanitises a board: collapses text (≤200), drops empties, keeps 12, ids `[A-Za-z0-9_-]` ≤32 and unique (default t1..tN). */
export function resolveTodos(items: readonly TodoInput[]): ResolvedTodos {
  if (!Array.isArray(items)) throw validationError("todos-invalid", "items must be a list of {id?, text, state?}");
  const todos: Todo[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  items.forEach((item, index) => {
    const text = collapseText(typeof item?.text === "string" ? item.text : "", MAX_TODO_TEXT);
    const state = resolveState(item?.state, index);
    if (text === "" || todos.length >= MAX_TODOS) {
      dropped++;
      return;
    }
    let id = typeof item.id === "string" ? item.id.replace(/[^A-Za-z0-9_-]/g, "").slice(0, MAX_TODO_ID) : "";
    if (id === "" || seen.has(id)) id = `t${todos.length + 1}`;
    while (seen.has(id)) id = `${id}_`.slice(-MAX_TODO_ID);
    seen.add(id);
    todos.push({ id, text, state });
  });
  return { todos, dropped };
}
