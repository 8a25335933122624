// Test-only pi extension: appends everything the model is about to see (system prompt, full message list) to
// $DOCKET_TEST_CONTEXT_LOG as JSONL, so a test can prove no worker text reached the model unless a chip carried it.

import { appendFileSync } from "node:fs";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function contextLog(pi: ExtensionAPI): void {
  const path = process.env.DOCKET_TEST_CONTEXT_LOG;
  if (!path) return;
  pi.on("before_agent_start", async (event) => {
    appendFileSync(
      path,
      `${JSON.stringify({ type: "system", prompt: event.prompt, systemPrompt: event.systemPrompt })}\n`,
    );
  });
  pi.on("context", async (event) => {
    appendFileSync(path, `${JSON.stringify({ type: "context", messages: event.messages })}\n`);
  });
}
