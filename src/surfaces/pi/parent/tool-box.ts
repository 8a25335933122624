// The pi session's model gets its tools boxed: pi's bash tool replaced by the same tool running in bubblewrap,
// and the file tools refused Docket's home. The human's own `!` commands and /docket verbs are not the model's: untouched.

import {
  createBashToolDefinition,
  getShellConfig,
  type BashOperations,
  type ExtensionAPI,
} from "@mariozechner/pi-coding-agent";
import {
  decideParentToolBox,
  parentFileRefusal,
  parentToolArgv,
  parentToolBoxNotice,
  runParentBash,
  type FileTool,
  type ParentToolBox,
} from "../../../engine/parent-tools.js";
import { noticeFor } from "./chat-notice.js";

const FILE_TOOLS: readonly FileTool[] = ["read", "write", "edit", "grep", "find", "ls"];

/** pi's bash, run in the box; refused outright when the human required containment that this machine cannot give. */
function boxedOperations(box: ParentToolBox, env: NodeJS.ProcessEnv): BashOperations | undefined {
  if (box.contained)
    return {
      exec: (command, cwd, options) =>
        runParentBash(parentToolArgv(env, box.bwrap, cwd), getShellConfig().shell, command, cwd, options),
    };
  if (box.refuse)
    return {
      exec: () =>
        Promise.reject(
          new Error(
            `docket: this session's bash tool runs nothing: sandbox is "required" and bubblewrap cannot contain it here (${box.why}); nothing was run`,
          ),
        ),
    };
  return undefined; // uncontained by the human's choice or this machine: pi's own bash, with the process-tree check
}

export function boxParentTools(pi: ExtensionAPI, env: NodeJS.ProcessEnv): void {
  const box = decideParentToolBox(env);
  const operations = boxedOperations(box, env);
  if (operations) {
    const builtIn = createBashToolDefinition(process.cwd(), { operations });
    // Sequential: no boxed process lives while a file tool checks and then follows a path (the box dies with its call).
    pi.registerTool({ ...builtIn, executionMode: "sequential" });
  }
  if (!box.contained)
    pi.on("session_start", async (_event, ctx) => {
      const { text, level } = parentToolBoxNotice(box);
      noticeFor(ctx, text, level);
    });
  pi.on("tool_call", async (event, ctx) => {
    const tool = FILE_TOOLS.find((name) => name === event.toolName);
    if (!tool) return undefined;
    const path = (event.input as { path?: unknown }).path;
    const refused = parentFileRefusal(env, ctx.cwd, tool, typeof path === "string" ? path : undefined);
    return refused ? { block: true, reason: refused } : undefined;
  });
}
