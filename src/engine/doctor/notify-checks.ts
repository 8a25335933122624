// The doctor's view of notifications: each sink on or off in the user's config, and whether it can work here.
// Checks only what it can without sending (`docket notify test` sends a sample through each).

import { userConfig } from "../user-config.js";
import { sinkProgram } from "../../substrate/notify-sinks.js";
import { ok, type Finding } from "./findings.js";

export function checkNotify(env: NodeJS.ProcessEnv): Finding[] {
  const c = userConfig(env).config.notify;
  const findings: Finding[] = [];
  if (!c.desktop)
    findings.push(ok("notify", "desktop notifications off (notify.desktop: true in your config.json turns them on)"));
  else if (!sinkProgram("notify-send", env))
    findings.push({
      check: "notify",
      severity: "warning",
      message: "notify.desktop is on but notify-send is not on PATH",
      fix: "install libnotify-bin (apt-get install -y libnotify-bin)",
    });
  else if (!env.DBUS_SESSION_BUS_ADDRESS && !env.XDG_RUNTIME_DIR)
    findings.push({
      check: "notify",
      severity: "warning",
      message: "notify.desktop is on but this process sees no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS unset)",
      fix: "run Docket inside your desktop session, then `docket notify test`",
    });
  else findings.push(ok("notify", "desktop notifications on (notify-send over the session bus)"));
  if (c.desktop && !sinkProgram(c.openCommand[0]!, env)) {
    findings.push({
      check: "notify",
      severity: "warning",
      message: `notify.openCommand's program ${JSON.stringify(c.openCommand[0])} is not found, so clicking a desktop notification opens nothing`,
      fix: 'install xdg-utils, or set notify.openCommand to a browser\'s argv such as ["firefox", "--new-tab"]',
    });
  }
  if (c.command.length > 0) {
    findings.push(
      sinkProgram(c.command[0]!, env)
        ? ok("notify", `notify.command runs ${JSON.stringify(c.command)}`)
        : {
            check: "notify",
            severity: "warning",
            message: `notify.command's program ${JSON.stringify(c.command[0])} is not found`,
            fix: "name a program on PATH or give its full path, then `docket notify test`",
          },
    );
  }
  findings.push(
    ok(
      "notify",
      `review page notifications ${c.web ? "on (when the browser allows them)" : "off"}; terminal notices ${c.terminal ? "on" : "off"}`,
    ),
  );
  return findings;
}
