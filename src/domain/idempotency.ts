// Idempotency keys: the one place a retryable call's key is built, from (tool, worker, call id, item).
// Namespaced per tool and free of the generation, so a retry replays and one call id reused by another tool never
// collides (docs/decisions/command-pattern.md).

/**
 * Every caller-keyed command: the worker calls (the periodic heartbeat, turn and touches too, keyed by their client),
 * the per-item report, and the human verbs that take `--key`.
 */
export type KeyedTool =
  | "todos"
  | "wait"
  | "done"
  | "fail"
  | "report"
  | "consult"
  | "note"
  | "heartbeat"
  | "turn"
  | "touches"
  | "item.add"
  | "item.edit"
  | "item.reply"
  | "dispatch"
  | "tell"
  | "obligation.park"
  | "obligation.unpark"
  | "comment.add"
  | "comment.edit"
  | "comment.delete";

export interface KeyParts {
  tool: KeyedTool;
  /** The worker speaking (worker calls); absent for a human's verb. */
  worker?: string;
  /** The caller's id for this call (a pi tool-call id, `--call-id`, `--key`); the same id means the same call. */
  callId: string;
  /** One entry of a call that carries several (an item of done, wait or a report batch). */
  item?: string;
}

/**
 * `done/w1/call-7/t1`: each part percent-encoded, so no call id can forge another key by containing a separator.
 * An empty segment means "none" (a human verb has no worker; a whole call has no item).
 */
export function idempotencyKey(parts: KeyParts): string {
  const segment = (value: string | undefined) => (value === undefined ? "" : encodeURIComponent(value));
  return [
    parts.tool,
    segment(parts.worker),
    segment(parts.callId),
    ...(parts.item === undefined ? [] : [segment(parts.item)]),
  ].join("/");
}

/** The key of an optional call id: no id, no key (the command then cannot be retried by identity). */
export function optionalKey(parts: Omit<KeyParts, "callId"> & { callId?: string }): string | undefined {
  return parts.callId === undefined || parts.callId === ""
    ? undefined
    : idempotencyKey({ ...parts, callId: parts.callId });
}
