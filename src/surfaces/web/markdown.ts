// Worker-written Markdown (bodies, item reports) as HTML: markdown-it with raw HTML off, its link check (no
// javascript:, vbscript:, file:, data:), images shown as text (no request leaves the page), links opened apart.

import markdownIt, { type MarkdownIt } from "markdown-it";
import { escapeHtml, trusted, type Html } from "./html.js";

let md: MarkdownIt | undefined;

function renderer(): MarkdownIt {
  if (md) return md;
  md = markdownIt({ html: false, linkify: true, typographer: false });
  md.renderer.rules.image = (tokens, idx) => {
    const t = tokens[idx]!;
    return `<span class="md-image">[image: ${escapeHtml(t.content || "untitled")} · ${escapeHtml(String(t.attrGet("src") ?? ""))}]</span>`;
  };
  const linkOpen =
    md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const t = tokens[idx]!;
    t.attrSet("rel", "noopener noreferrer nofollow");
    t.attrSet("target", "_blank");
    return linkOpen(tokens, idx, options, env, self);
  };
  return md;
}

export function renderMarkdown(text: string): Html {
  return trusted(renderer().render(text));
}
