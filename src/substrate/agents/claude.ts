// The Claude Code launcher: its interactive CLI with `docket mcp` as its only MCP server, the kind's authority as its
// permission mode, Docket's hooks for turn boundaries, and a private CLAUDE_CONFIG_DIR past onboarding and trust.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { LocatedAgent } from "./locate.js";
import { writePrivateFile, type McpAgentSpec, type PreparedAgent } from "./mcp-agent.js";

/** Tools that change files; a read-only worker is denied them by Claude Code itself. */
export const CLAUDE_EDIT_TOOLS = ["Edit", "Write", "NotebookEdit"];

/** Read-only: nothing that would ask is allowed (dontAsk) and edits are denied. Writable: edits in the workspace pass. */
export function claudePermissionArgs(
  spec: Pick<McpAgentSpec, "readOnly" | "cwd" | "workspace" | "unattended">,
): string[] {
  const allowDocket = ["--allowedTools", "mcp__docket"];
  // Unattended (contained only): nothing asks; a read-only kind still has its edit tools denied, and the sandbox holds either way.
  if (spec.unattended)
    return [
      "--permission-mode",
      "bypassPermissions",
      ...allowDocket,
      ...(spec.readOnly ? ["--disallowedTools", ...CLAUDE_EDIT_TOOLS] : []),
    ];
  if (spec.readOnly) return ["--permission-mode", "dontAsk", ...allowDocket, "--disallowedTools", ...CLAUDE_EDIT_TOOLS];
  return [
    "--permission-mode",
    "acceptEdits",
    ...allowDocket,
    ...(spec.cwd !== spec.workspace ? ["--add-dir", spec.workspace] : []),
  ];
}

export function claudeArgv(spec: McpAgentSpec, located: LocatedAgent): string[] {
  return [
    ...located.command,
    "--mcp-config",
    join(spec.configDir, "mcp.json"),
    "--strict-mcp-config",
    // Only Docket's settings (the private config dir): a project's .claude/settings.json may not widen the kind.
    "--setting-sources",
    "user",
    ...claudePermissionArgs(spec),
    "--append-system-prompt-file",
    join(spec.configDir, "docket-instructions.md"),
    ...(spec.model ? ["--model", spec.model] : []),
    ...(spec.resume && hasSession(spec.configDir) ? ["--continue"] : []),
    ...spec.extraArgs,
    // `--` ends the options: a variadic flag before it (--add-dir, --disallowedTools) cannot swallow the prompt.
    "--",
    spec.prompt,
  ];
}

/** The plan gate, enforced: Claude Code asks Docket before each file edit; exit 2 refuses it with the reason on stderr. */
const gateHook = [
  {
    matcher: CLAUDE_EDIT_TOOLS.join("|"),
    hooks: [{ type: "command", command: '"$DOCKET_NODE" "$DOCKET_BIN" worker gate' }],
  },
];

/** The files of the private config dir: state past onboarding/trust, Docket's hooks, the MCP server. */
export function claudeFiles(spec: McpAgentSpec, previousState: Record<string, unknown> = {}): Record<string, string> {
  const hook = (event: string) => [
    { hooks: [{ type: "command", command: `"$DOCKET_NODE" "$DOCKET_BIN" worker hook ${event}` }] },
  ];
  const key = spec.env.ANTHROPIC_API_KEY;
  const projects = { ...(isObject(previousState.projects) ? previousState.projects : {}) };
  for (const dir of new Set([spec.cwd, spec.workspace]))
    projects[dir] = { ...(isObject(projects[dir]) ? projects[dir] : {}), hasTrustDialogAccepted: true };
  const state = {
    ...previousState,
    hasCompletedOnboarding: true,
    // Claude Code asks once per key and remembers its last 20 characters; the same record it writes itself.
    ...(key ? { customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] } } : {}),
    projects,
  };
  return {
    ".claude.json": `${JSON.stringify(state, null, 2)}\n`,
    "settings.json": `${JSON.stringify(
      {
        hooks: { UserPromptSubmit: hook("prompt"), Stop: hook("stop"), PreToolUse: gateHook },
        // Unattended was the human's choice in their user config: no one is at the pane to accept bypass mode's disclaimer.
        ...(spec.unattended ? { skipDangerousModePermissionPrompt: true } : {}),
      },
      null,
      2,
    )}\n`,
    "mcp.json": `${JSON.stringify({ mcpServers: { docket: { type: "stdio", command: spec.docket.node, args: [spec.docket.bin, "mcp"] } } }, null, 2)}\n`,
    "docket-instructions.md": `${spec.instructions}\n`,
  };
}

/** Writes the private config dir and returns the argv and the variables that point Claude Code at it. */
export function prepareClaude(spec: McpAgentSpec, located: LocatedAgent): PreparedAgent {
  for (const [name, content] of Object.entries(claudeFiles(spec, readState(spec.configDir))))
    writePrivateFile(join(spec.configDir, name), content);
  return {
    argv: claudeArgv(spec, located),
    env: {
      CLAUDE_CONFIG_DIR: spec.configDir,
      ENABLE_TOOL_SEARCH: "false",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      // Claude Code refuses bypass mode as root unless told it runs in a deliberate sandbox: unattended, it does (Docket's).
      ...(spec.unattended && spec.contained ? { IS_SANDBOX: "1" } : {}),
    },
  };
}

function readState(configDir: string): Record<string, unknown> {
  try {
    const raw: unknown = JSON.parse(readFileSync(join(configDir, ".claude.json"), "utf8"));
    return isObject(raw) ? raw : {};
  } catch {
    return {}; // first launch, or a state file Claude Code left torn: start from ours
  }
}

function hasSession(configDir: string): boolean {
  const projects = join(configDir, "projects");
  return existsSync(projects) && readdirSync(projects).length > 0;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
