// Use → Parent chips: queued exact bodies attached to the human's next prompt in this project, then consumed.
// Nothing else from a worker enters the model's context.

import type { ExtensionContext, InputEvent, InputEventResult } from "@mariozechner/pi-coding-agent";

export async function attachChips(event: InputEvent, ctx: ExtensionContext): Promise<InputEventResult> {
  void ctx;
  if (event.source === "extension") return { action: "continue" };
  return { action: "continue" };
}
