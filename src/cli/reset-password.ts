/**
 * `cairn reset-password EMAIL [--data DIR]`: an owner who has forgotten the password is
 * otherwise stranded (there is no e-mail reset yet, and nobody above the owner). Whoever can
 * run the binary on the data directory can read every page in it anyway, so being able to
 * run it is the proof.
 *
 * 1. open the existing data directory as it is, the server stopped or running (never create one);
 * 2. find the account (unknown e-mail: one line, nothing changed);
 * 3. read the new password from standard input (one line; empty refused; the registration rules);
 * 4. auth's resetPassword: the password, every session ended, the lockout cleared, audited;
 * 5. answer the line to print.
 *
 * No one-time sign-in link (--link): keeping one safely needs a table for its hash, and the
 * password read here already gets the owner in.
 */
import { resetPassword } from "../auth/service";
import { CommandError } from "./command-error";
import { openExistingDataDir } from "./open-data-dir";
import { parseArgv } from "../platform/argv";
import { AppError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { findUserWithRoleByEmail, USER_STATUS } from "../users/service";
import { RESET_PASSWORD_USAGE } from "./usage";
export { RESET_PASSWORD_USAGE };

export interface CommandIo {
  env: Record<string, string | undefined>;
  log: Logger;
  readSecret(prompt: string): Promise<string>;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export async function resetPasswordCommand(argv: string[], io: CommandIo): Promise<string> {
  const args = parseArgv(
    argv,
    ["--data"],
    ({ kind, name }) =>
      new CommandError(
        `${kind === "unknown_option" ? `Unknown option ${name}` : `Option ${name} needs a value`}. Usage: ${RESET_PASSWORD_USAGE}`,
      ),
  );
  if (args.positional.length !== 1) throw new CommandError(`Give the account's e-mail address. Usage: ${RESET_PASSWORD_USAGE}`);
  const [email] = args.positional;
  // 1.
  const core = openExistingDataDir(args.values["--data"] ?? (io.env.CAIRN_DATA || "./data"), io.log);
  try {
    // 2.
    const found = findUserWithRoleByEmail(core, email);
    if (!found) throw new CommandError(`No account has the e-mail address ${email} in ${core.data.root}. Nothing was changed.`);
    // 3.
    const password = await io.readSecret(`New password for ${found.user.email}: `);
    if (password === "") throw new CommandError("The new password is empty. Nothing was changed.");
    // 4.
    const reset = await resetPassword(core, found.user, password, "cli").catch((err) => {
      const reason = err instanceof AppError ? err.extras.errors?.password?.[0] : undefined;
      throw reason ? new CommandError(`The new password ${reason}. Nothing was changed.`) : err;
    });
    // 5.
    const lockout = reset.lockoutCleared ? ", sign-in lockout cleared" : "";
    const suspended =
      found.user.status === USER_STATUS.Suspended
        ? " The account is suspended: it cannot sign in until an administrator reactivates it."
        : "";
    return (
      `Password reset for ${found.user.email}: ${plural(reset.sessionsSignedOut, "session")} signed ` +
      `out${lockout}; API tokens unchanged.${suspended}`
    );
  } finally {
    core.close();
  }
}
