// Performs a key pressed on the verdict card: asks what the action needs through pi's dialogs (shared/card-request.ts),
// then runs the same engine command as the CLI and the review page, bound to the version and decision on the card.

import { visibleText } from "../../../domain/text/visible-text.js";
import { runAction, STALE_CODES, type ActRequest } from "../../../engine/review/card-act.js";
import type { ReviewView } from "../../../engine/review/review-view.js";
import { isDocketError } from "../../../domain/errors.js";
import { boundOf, requestForAction, tellRequest, type Prompter } from "../../shared/card-request.js";
import type { Banner } from "./card-lines.js";
import type { CardIntent } from "./card-keys.js";
import { refusalText, showRefusal, showResult, type ParentHost } from "./host.js";

/** Runs the intent; resolves with the banner the card shows next, or undefined when the human cancelled a dialog. */
export async function performCardIntent(
  host: ParentHost,
  view: ReviewView,
  intent: CardIntent,
): Promise<Banner | undefined> {
  let request: ActRequest | undefined;
  try {
    request = await requestFor(host, view, intent);
    if (!request) return undefined;
    const r = await runAction(host.engine(), request, host.parent ? { parent: host.parent } : {});
    showResult(host, r.lines);
    return { level: "info", text: r.lines.join("\n") };
  } catch (error) {
    showRefusal(host, error);
    const stale = isDocketError(error) && STALE_CODES.has(error.code);
    return { level: "error", text: `${refusalText(error)}${stale ? " — the card now shows the current state" : ""}` };
  } finally {
    if (request) host.refresh();
  }
}

async function requestFor(host: ParentHost, view: ReviewView, intent: CardIntent): Promise<ActRequest | undefined> {
  const ui = host.ctx.ui;
  const prompter: Prompter = {
    input: (q) => ui.input(q),
    confirm: (title, q) => ui.confirm(title, q),
    select: (title, options) => ui.select(title, options),
  };
  const bound = boundOf(view);
  switch (intent.kind) {
    case "answer":
      return { ...bound, verb: "answer", question: intent.question, text: intent.text };
    case "say": {
      const q = view.card.detail.questions.find((x) => x.id === intent.question);
      if (!q) return tellRequest(prompter, bound);
      const text = (
        await ui.input(visibleText(`Your answer to ${bound.worker}'s question ${q.id}: ${q.text}`))
      )?.trim(); // the question is worker text
      return text ? { ...bound, verb: "answer", question: q.id, text } : undefined;
    }
    case "use": {
      const picked = await ui.select(
        `Use ${intent.actions[0]!.ref} →`,
        intent.actions.map((a) => USE_LABEL[a.mode!]!),
      );
      const action = intent.actions.find((a) => USE_LABEL[a.mode!] === picked);
      return action ? requestForAction(prompter, view, action, host.engine) : undefined;
    }
    case "act":
      return requestForAction(prompter, view, intent.action, host.engine);
    default:
      return undefined;
  }
}

const USE_LABEL: Record<string, string> = {
  implement: "Implement: start an implementer with this approved plan",
  worker: "Worker: start a fresh worker with this version as its input",
  parent: "Parent: attach the exact body to your next prompt here",
};
