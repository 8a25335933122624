// The parent role of the pi extension (the human's session): /docket commands, the dock, notifications, chips.
// Filled in by the lead; worker text never enters the model's context unless the human puts it there.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export function registerParentRole(pi: ExtensionAPI): void {
  void pi;
}
