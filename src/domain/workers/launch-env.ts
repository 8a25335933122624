// The launch env file's text: one `export NAME='value'` per variable, read by the fixed launch wrapper with `.`.
// Pure: values are single-quoted (a `'` becomes `'\''`), so no byte of a value is ever shell syntax
// (docs/decisions/authority.md).

import { internalError } from "../errors.js";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isEnvName(name: string): boolean {
  return NAME.test(name);
}

export function formatLaunchEnv(env: Readonly<Record<string, string>>, header: string): string {
  const lines = [`# ${header.replace(/\n/g, " ")}`];
  for (const [name, value] of Object.entries(env)) {
    if (!isEnvName(name))
      throw internalError("bad-env-name", `not an environment variable name: ${JSON.stringify(name)}`);
    if (value.includes("\0")) throw internalError("bad-env-value", `the value of ${name} contains a NUL byte`);
    lines.push(`export ${name}='${value.replace(/'/g, `'\\''`)}'`);
  }
  return `${lines.join("\n")}\n`;
}

/** The variables of a file `formatLaunchEnv` wrote; undefined when the text is not in that exact shape. */
export function parseLaunchEnv(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    if (text[i] === "\n") {
      i++;
      continue;
    }
    if (text[i] === "#") {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end + 1;
      continue;
    }
    const head = /^export ([A-Za-z_][A-Za-z0-9_]*)=/.exec(text.slice(i, i + 300));
    if (!head) return undefined;
    i += head[0].length;
    let value = "";
    for (;;) {
      if (text[i] !== "'") return undefined;
      const close = text.indexOf("'", i + 1);
      if (close === -1) return undefined;
      value += text.slice(i + 1, close);
      i = close + 1;
      if (!text.startsWith("\\'", i)) break;
      value += "'";
      i += 2;
    }
    if (i < text.length && text[i] !== "\n") return undefined;
    out[head[1]!] = value;
  }
  return out;
}
