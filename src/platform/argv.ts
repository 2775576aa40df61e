/** A command line's words and options, for `cairn serve` (config.ts) and the other commands. */
export interface ParsedArgv {
  positional: string[];
  /** Options with a value (--data DIR or --data=DIR), by name. */
  values: Record<string, string>;
}

export type ArgvProblem = { kind: "unknown_option" | "missing_value"; name: string };

/**
 * Words, and the options the caller names, each with a value. An option it does not name is
 * refused rather than ignored, so `--dta ./data` never quietly means ./data; a value that is
 * the next option (`--port --data DIR`) is a missing value. `fail` makes the caller's error.
 */
export function parseArgv(argv: string[], options: readonly string[], fail: (problem: ArgvProblem) => Error): ParsedArgv {
  const out: ParsedArgv = { positional: [], values: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("-") || arg === "-") {
      out.positional.push(arg);
      continue;
    }
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (!options.includes(name)) throw fail({ kind: "unknown_option", name });
    const value = inline ?? argv[++i];
    if (value === undefined || value === "" || (inline === undefined && value.startsWith("--")))
      throw fail({ kind: "missing_value", name });
    out.values[name] = value;
  }
  return out;
}
