// An in-memory tmux for engine tests of what the engine asks tmux (harvest, delete, tell): panes with their text,
// and a record of every window killed and every text sent. The real port stays covered by the tmux end-to-end tests.

import type { LaunchWindowInput, PaneMap, PaneState, Tmux } from "../../src/substrate/tmux.js";

export interface MemoryPane {
  window: string;
  windowName: string;
  state: Exclude<PaneState, "missing">;
  text: string;
}

export interface MemoryTmux extends Tmux {
  panes: Map<string, MemoryPane>;
  launched: LaunchWindowInput[];
  killed: string[];
  captured: string[];
  sent: { pane: string; text: string }[];
}

export function memoryTmux(panes: Record<string, MemoryPane> = {}): MemoryTmux {
  let next = 100;
  const t: MemoryTmux = {
    panes: new Map(Object.entries(panes)),
    launched: [],
    killed: [],
    captured: [],
    sent: [],
    serverArgs: ["-L", "memory"],
    hasSession: () => true,
    launchWindow(input: LaunchWindowInput) {
      t.launched.push(input);
      const n = next++;
      t.panes.set(`%${n}`, { window: `@${n}`, windowName: input.name, state: "alive", text: "" });
      return { windowId: `@${n}`, paneId: `%${n}` };
    },
    paneState(paneId, windowName) {
      const p = t.panes.get(paneId);
      return !p || (windowName !== undefined && p.windowName !== windowName) ? "missing" : p.state;
    },
    listPanes(): PaneMap {
      return new Map([...t.panes].map(([id, p]) => [id, { state: p.state, windowName: p.windowName }]));
    },
    capture(paneId) {
      t.captured.push(paneId);
      return t.panes.get(paneId)?.text ?? "";
    },
    killWindow(windowId) {
      t.killed.push(windowId);
      for (const [id, p] of t.panes) if (p.window === windowId) t.panes.delete(id);
    },
    sendText(paneId, text) {
      t.sent.push({ pane: paneId, text });
    },
    switchClient: () => undefined,
    attachArgv: (session, windowId) => ["tmux", "-L", "memory", "attach", "-t", `${session}:${windowId}`],
    killServer: () => t.panes.clear(),
  };
  return t;
}
