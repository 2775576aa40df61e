import { CommandError } from "./command-error";

export interface ParsedArgs {
  positional: string[];
  /** Options with a value (--data DIR or --data=DIR), by name. */
  values: Record<string, string>;
}

/**
 * A command's arguments: the options it names, each with a value, and words. An option it does
 * not name is refused rather than ignored, so `--dta ./data` never quietly means ./data.
 */
export function parseArgs(argv: string[], options: readonly string[], usage: string): ParsedArgs {
  const out: ParsedArgs = { positional: [], values: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("-") || arg === "-") {
      out.positional.push(arg);
      continue;
    }
    const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (!options.includes(name)) throw new CommandError(`Unknown option ${name}. Usage: ${usage}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === "" || (inline === undefined && value.startsWith("--"))) throw new CommandError(`Option ${name} needs a value. Usage: ${usage}`);
    out.values[name] = value;
  }
  return out;
}
