/**
 * A secret read from standard input, one line: piped (`printf '%s\n' "$PW" | cairn …`, which
 * keeps it out of the shell history and the process list, unlike an argument) or typed at a
 * terminal, which then does not echo it.
 */
import { CommandError } from "./command-error";

export async function readSecretLine(prompt: string): Promise<string> {
  return process.stdin.isTTY ? readFromTerminal(prompt) : oneLine(await Bun.stdin.text());
}

/** Piped text: one line, its line ending dropped; a second line is refused rather than guessed at. */
export function oneLine(text: string): string {
  const line = text.replace(/\r?\n$/, "");
  if (/[\r\n]/.test(line)) throw new CommandError("Give the new password on one line of standard input. Nothing was changed.");
  return line;
}

async function readFromTerminal(prompt: string): Promise<string> {
  process.stderr.write(prompt);
  const stty = (mode: string) => Bun.spawnSync(["stty", mode], { stdin: "inherit", stdout: "ignore", stderr: "ignore" });
  stty("-echo");
  try {
    for await (const line of console) return line;
    return "";
  } finally {
    stty("echo");
    process.stderr.write("\n");
  }
}
