// Use → Parent chips: queued exact bodies attached to the human's next prompt in this project, then consumed.
// Nothing else from a worker enters the model's context; prompts sent by extensions never pick chips up.

import type { ExtensionContext, InputEvent, InputEventResult } from "@mariozechner/pi-coding-agent";
import { hasQueuedChips, takeChips, type AttachedChip } from "../../../engine/talk/parent-feed.js";
import type { EngineOpener } from "../../shared/session.js";
import { noticeFor } from "./chat-notice.js";
import { wrapperNonce } from "./nonce.js";
import { boundaryTag } from "../../../domain/text/fence.js";

/** Attaches queued chips to a human prompt; `onTaken` runs after chips were consumed (the dock repaints). */
export async function attachChips(
  event: InputEvent,
  ctx: ExtensionContext,
  engine: EngineOpener,
  onTaken: () => void = () => undefined,
): Promise<InputEventResult> {
  if (event.source === "extension" || event.text.trimStart().startsWith("/")) return { action: "continue" };
  const e = engine();
  if (!hasQueuedChips(e)) return { action: "continue" };
  const chips = takeChips(e);
  if (chips.length === 0) return { action: "continue" }; // another parent session of this project took them first
  onTaken();
  if (ctx.hasUI) noticeFor(ctx, `docket · attached ${chips.map((c) => c.ref).join(", ")} to this prompt`, "info");
  return { action: "transform", text: formatChipContext(chips, event.text), images: event.images };
}

/**
 * Each chip's exact body in a tag whose random suffix is drawn now, after the body was frozen: no line of the body can
 * close the wrapper or open one that looks like Docket's.
 */
export function formatChipContext(
  chips: readonly AttachedChip[],
  prompt: string,
  draw: () => string = wrapperNonce,
): string {
  const blocks = chips.map((c) => {
    const tag = boundaryTag("docket-deliverable", draw, [c.body, prompt]);
    return `<${tag} ref="${c.ref}">\n${c.body}\n</${tag}>`;
  });
  return `${blocks.join("\n\n")}\n\n${prompt}`;
}
