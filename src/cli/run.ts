import { createLogger, type Logger } from "../platform/log";
import { errorCode } from "../platform/errors";
import { CommandError } from "./command-error";

/** A command: its arguments in, the one line to print on success out (CommandError otherwise). */
export type Command = (argv: string[]) => Promise<string>;

/** Warnings and errors on standard error, as JSON lines; nothing else, so success stays one line. */
export function commandLogger(): Logger {
  const toStderr = createLogger((line) => process.stderr.write(line + "\n"));
  return { info() {}, warn: toStderr.warn, error: toStderr.error };
}

/** Runs a command and exits: its line and 0, or one line on standard error and 2. */
export async function runCommand(command: Command, argv: string[], debug: boolean): Promise<never> {
  try {
    console.log(await command(argv));
    process.exit(0);
  } catch (err) {
    console.error(`cairn: ${explain(err)}`);
    if (debug) console.error(err);
    process.exit(2);
  }
}

function explain(err: unknown): string {
  if (err instanceof CommandError) return err.message;
  const e = err as { message?: string };
  if (errorCode(err) === "SQLITE_BUSY")
    return "The database stayed locked for 5 seconds (a long write by the running server?). Nothing was changed; try again.";
  return `The command failed: ${e.message ?? String(err)}. Nothing was changed; run it again with --debug for the details.`;
}
