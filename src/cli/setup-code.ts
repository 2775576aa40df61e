/**
 * `cairn setup-code [--data DIR]`: prints again the code the owner form asks for on a first run
 * that listens beyond loopback (users/setup-code.ts), for whoever lost the server's log. The
 * server stopped or running (the server reads the code from the data directory at each
 * attempt, so a code this creates is the one that works). Once the owner exists there is none.
 */
import { needsOwner } from "../users/service";
import { ensureSetupCode } from "../users/setup-code";
import { listAccounts } from "../users/admin-users";
import { parseArgv } from "../platform/argv";
import type { Logger } from "../platform/log";
import { CommandError } from "./command-error";
import { openExistingDataDir } from "./open-data-dir";
import { SETUP_CODE_USAGE } from "./usage";
export { SETUP_CODE_USAGE };

export interface SetupCodeIo {
  env: Record<string, string | undefined>;
  log: Logger;
}

export async function setupCodeCommand(argv: string[], io: SetupCodeIo): Promise<string> {
  const args = parseArgv(
    argv,
    ["--data"],
    ({ kind, name }) =>
      new CommandError(
        `${kind === "unknown_option" ? `Unknown option ${name}` : `Option ${name} needs a value`}. Usage: ${SETUP_CODE_USAGE}`,
      ),
  );
  if (args.positional.length) throw new CommandError(`Unexpected ${JSON.stringify(args.positional[0])}. Usage: ${SETUP_CODE_USAGE}`);
  const core = openExistingDataDir(args.values["--data"] ?? (io.env.CAIRN_DATA || "./data"), io.log);
  try {
    if (!needsOwner(core)) {
      const owner = listAccounts(core).find((a) => a.isOwner);
      throw new CommandError(
        `The owner account exists already${owner ? ` (${owner.email})` : ""}: no setup code is needed any ` +
          `more. Sign in, or run \`cairn reset-password EMAIL\` if the password is lost.`,
      );
    }
    const { code } = ensureSetupCode(core.data.root);
    return `Setup code: ${code} (the owner form asks for it while the server listens beyond 127.0.0.1 and no account exists)`;
  } finally {
    core.close();
  }
}
