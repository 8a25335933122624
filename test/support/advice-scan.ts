// Finds every `docket …` command Docket's own text tells a human to run, by parsing src/ with the TypeScript compiler:
// the literals passed to an error constructor (a refusal's message and hint) and every backticked command elsewhere.

import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

export const SRC = join(import.meta.dirname, "..", "..", "..", "src");

/** Callees whose string arguments are a refusal's code, message and hint. */
const ERROR_BUILDERS = new Set([
  "refusal",
  "validationError",
  "conflict",
  "fenced",
  "notFound",
  "usageError",
  "internalError",
  "abort",
  "DocketError",
]);

export interface Advice {
  /** `src/…` path and line of the literal. */
  site: string;
  file: string;
  /** The error code of the refusal it belongs to (undefined outside an error constructor). */
  code: string | undefined;
  /** The literal's text with `${…}` kept as written. */
  text: string;
  /** Commands in backticks, each without the backticks. */
  commands: string[];
  /** Part of a refusal (an error constructor's argument). */
  inRefusal: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string | undefined {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/** A literal's text; a template keeps its `${expr}` parts verbatim so a test can see what was interpolated. */
function literalText(node: ts.Node, source: ts.SourceFile): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return (
      node.head.text + node.templateSpans.map((s) => `\${${s.expression.getText(source)}}${s.literal.text}`).join("")
    );
  }
  return undefined;
}

const BACKTICKED = /`(docket [^`]+)`/g;

/** Every literal in src/ that names a docket command, with the refusal it belongs to. */
export function scanAdvice(): Advice[] {
  const out: Advice[] = [];
  for (const path of sourceFiles(SRC)) {
    const file = relative(join(SRC, ".."), path);
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node, error: { code: string | undefined } | undefined): void => {
      let inError = error;
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ERROR_BUILDERS.has(calleeName(node) ?? "")) {
        const args = node.arguments ?? ts.factory.createNodeArray();
        const codeArg =
          calleeName(node) === "DocketError" ? args[1] : calleeName(node) === "abort" ? undefined : args[0];
        inError = {
          code:
            codeArg && ts.isStringLiteral(codeArg)
              ? codeArg.text
              : calleeName(node) === "abort"
                ? "spawn-policy"
                : undefined,
        };
      }
      const text = literalText(node, source);
      if (text !== undefined && /\bdocket [a-z]/.test(text)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        out.push({
          site: `${file}:${line}`,
          file,
          code: inError?.code,
          text,
          commands: [...text.matchAll(BACKTICKED)].map((m) => m[1]!),
          inRefusal: inError !== undefined,
        });
      }
      if (text === undefined) ts.forEachChild(node, (child) => visit(child, inError));
    };
    visit(source, undefined);
  }
  return out;
}
