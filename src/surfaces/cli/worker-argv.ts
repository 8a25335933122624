// The worker verbs' command lines without commander: the verbs' own registrars record into this small stand-in, and a
// well-formed line is parsed here into the same arguments commander would hand the action. Anything else (help,
// an unknown or malformed option, a missing argument) is declined, and the caller runs commander for its own message.

import type { Command } from "commander";

type Parser = (value: string, previous: unknown) => unknown;
type Action = (...args: unknown[]) => unknown;

interface OptionSpec {
  long: string;
  key: string;
  takesValue: boolean;
  required: boolean;
  parser?: Parser;
  initial?: unknown;
}

interface ArgumentSpec {
  required: boolean;
  variadic: boolean;
}

/** One recorded verb: its options, its arguments and its action, as its registrar declared them. */
export interface RecordedVerb {
  options: OptionSpec[];
  args: ArgumentSpec[];
  action?: Action;
  /** The registrar used a form this parser does not mimic: commander handles the whole line. */
  unsupported: boolean;
}

const camel = (long: string) => long.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** A stand-in for commander's `Command` holding only what the worker registrars call; `verbs` fills as they run. */
export function recorder(): { group: Command; verbs: Map<string, RecordedVerb> } {
  const verbs = new Map<string, RecordedVerb>();
  const group = {
    command(name: string) {
      const verb: RecordedVerb = { options: [], args: [], unsupported: false };
      verbs.set(name, verb);
      const addOption =
        (required: boolean) => (flags: string, _description?: string, parser?: unknown, initial?: unknown) => {
          const m = /^--([a-z][a-z0-9-]*)(?: <[^>]+>)?$/.exec(flags);
          if (!m || (parser !== undefined && typeof parser !== "function")) verb.unsupported = true;
          else
            verb.options.push({
              long: `--${m[1]}`,
              key: camel(`--${m[1]}`),
              takesValue: flags.includes(" <"),
              required,
              ...(parser ? { parser: parser as Parser } : {}),
              ...(initial !== undefined ? { initial } : {}),
            });
          return cmd;
        };
      const cmd = {
        description: () => cmd,
        option: addOption(false),
        requiredOption: addOption(true),
        argument(spec: string) {
          const m = /^(<|\[)[a-z][a-z0-9-]*(\.\.\.)?(>|\])$/.exec(spec);
          if (!m) verb.unsupported = true;
          else verb.args.push({ required: m[1] === "<", variadic: m[2] !== undefined });
          return cmd;
        },
        action(fn: Action) {
          verb.action = fn;
          return cmd;
        },
      };
      return cmd;
    },
  };
  return { group: group as unknown as Command, verbs };
}

/**
 * The action's arguments for `argv` (the words after the verb), as commander would pass them: each declared argument,
 * then the options object. Undefined when commander must take the line (its help, or its own error message).
 */
export function parseVerb(verb: RecordedVerb, argv: readonly string[]): unknown[] | undefined {
  if (verb.unsupported || !verb.action) return undefined;
  const opts: Record<string, unknown> = {};
  for (const o of verb.options) if (o.initial !== undefined) opts[o.key] = o.initial;
  const operands: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "-" || !word.startsWith("-")) {
      operands.push(word);
      continue;
    }
    const eq = word.indexOf("=");
    const name = eq === -1 ? word : word.slice(0, eq);
    const option = verb.options.find((o) => o.long === name);
    if (!option) return undefined; // --help, --, an unknown or short option: commander's to answer
    let value: string | undefined;
    if (!option.takesValue) {
      if (eq !== -1) return undefined;
    } else if (eq !== -1) value = word.slice(eq + 1);
    else {
      value = argv[++i];
      if (value === undefined) return undefined;
    }
    seen.add(option.key);
    opts[option.key] = value === undefined ? true : option.parser ? option.parser(value, opts[option.key]) : value;
  }
  if (verb.options.some((o) => o.required && !seen.has(o.key))) return undefined;
  const values: unknown[] = [];
  for (const [n, spec] of verb.args.entries()) {
    if (spec.variadic) {
      if (spec.required && operands.length <= n) return undefined;
      values.push(operands.slice(n));
    } else {
      if (spec.required && operands.length <= n) return undefined;
      values.push(operands[n]);
    }
  }
  const taken = verb.args.some((a) => a.variadic) ? operands.length : Math.min(operands.length, verb.args.length);
  if (operands.length > taken) return undefined; // too many arguments: commander says so
  return [...values, opts];
}
