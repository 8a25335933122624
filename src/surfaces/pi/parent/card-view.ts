// The verdict card as a focused pi overlay: the whole card on screen with its actions on keys while the human decides.
// A key ends the overlay with an intent; the review flow performs it and opens the card again on fresh data.

import { matchesKey, type Component, type TUI } from "@mariozechner/pi-tui";
import type { ReviewView } from "../../../engine/review/review-view.js";
import { cardBody, cardHead, type Banner } from "./card-lines.js";
import { cardKeys, formatLegend, type CardIntent } from "./card-keys.js";
import type { Paint } from "./paint.js";
import { isClose, ScrollBox } from "./scroll-box.js";

export interface CardViewInput {
  view: ReviewView;
  /** Position in the verdict queue (`2 of 5`), when the card is one of it. */
  queue?: { index: number; total: number };
  banner?: Banner;
  offset?: number;
}

export interface CardOutcome {
  intent: CardIntent;
  /** Where the body was scrolled to, so the card reopens at the same place. */
  offset: number;
}

export function createCardView(
  tui: TUI,
  paint: Paint,
  input: CardViewInput,
  done: (outcome: CardOutcome) => void,
): Component {
  const { view } = input;
  const keys = cardKeys(view, { queued: input.queue !== undefined && input.queue.total > 1 });
  const version = view.card.deliverable ? ` v${view.card.deliverable.version}` : "";
  const box: ScrollBox = new ScrollBox(
    tui,
    paint,
    {
      title: () => paint.fg("accent", `docket · verdict · ${view.card.worker}${version}`),
      head: (width) => cardHead(view, paint, width, input.banner),
      body: (width) => cardBody(view, paint, width),
      legend: () => [...formatLegend(keys), "j/k scroll", "esc close"],
      footer: () => (input.queue ? `${input.queue.index + 1} of ${input.queue.total} in the queue` : ""),
    },
    (data) => {
      if (isClose(data)) {
        done({ intent: { kind: "close" }, offset: box.offset });
        return true;
      }
      const hit = keys.find((k) => matchesKey(data, k.key));
      if (!hit) return false;
      done({ intent: hit.intent, offset: box.offset });
      return true;
    },
    input.offset ?? 0,
  );
  return box;
}
