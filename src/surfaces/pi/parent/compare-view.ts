// `/docket compare b<N>` inside pi: the group's comparison (the same lines as the CLI) in an overlay, recorded as shown
// on pi; a number key chooses that candidate's version after a yes, through the same `choose` command as everywhere.

import { matchesKey, type KeyId } from "@mariozechner/pi-tui";
import type { Comparison } from "../../../engine/groups/compare.js";
import { formatComparison } from "../../shared/compare-lines.js";
import { showOverlay, showRefusal, showResult, type ParentHost } from "./host.js";
import { safe, wrap } from "./paint.js";
import { isClose, ScrollBox } from "./scroll-box.js";

type CompareIntent = { kind: "close" } | { kind: "choose"; ref: string };

export async function openCompare(host: ParentHost, group: string): Promise<void> {
  const { compareGroup } = await import("../../../engine/groups/compare.js");
  let c: Comparison;
  try {
    c = compareGroup(host.engine(), group, { surface: "pi" });
  } catch (error) {
    showRefusal(host, error);
    return;
  }
  const choosable = c.chosen ? [] : c.candidates.filter((k) => k.ref !== null && !k.invalid);
  const intent = await showOverlay<CompareIntent>(
    host,
    (tui, paint, done) =>
      new ScrollBox(
        tui,
        paint,
        {
          title: () => `${paint.fg("accent", `docket · compare · ${c.group}`)} · best of ${c.candidates.length}`,
          head: () => [],
          body: (width) => formatComparison(c).flatMap((line) => wrap(safe(line), width)),
          legend: () => [
            ...(choosable.length > 0
              ? [`1–${choosable.length} choose ${choosable.map((k) => k.worker).join("/")}`]
              : []),
            "j/k scroll",
            "esc close",
          ],
        },
        (data) => {
          if (isClose(data)) done({ kind: "close" });
          else {
            const n = choosable.findIndex((_, i) => matchesKey(data, String(i + 1) as KeyId));
            if (n < 0) return false;
            done({ kind: "choose", ref: choosable[n]!.ref! });
          }
          return true;
        },
      ),
  );
  if (intent.kind === "close") return;
  const yes = await host.ctx.ui.confirm(
    `Choose ${intent.ref}?`,
    "Approves it, records the other candidates as not chosen and stops them.",
  );
  if (!yes) return;
  try {
    const { chooseCandidate } = await import("../../../engine/groups/choose.js");
    showResult(host, chooseCandidate(host.engine(), { ref: intent.ref }).notes);
    host.refresh();
  } catch (error) {
    showRefusal(host, error);
  }
}
