/**
 * `cairn users [--data DIR]`: the accounts of a data directory (e-mail, name, role, status,
 * when last seen), for an owner who no longer knows which address they signed up with (then
 * `cairn reset-password EMAIL`). Read only; the server stopped or running, as reset-password
 * (open-data-dir.ts). Whoever can run the binary on the data directory can read every page in
 * it anyway, so listing the addresses gives nothing away.
 *
 * Last seen is the latest use of one of the account's sessions or API tokens still stored (the
 * admin Members screen's figure); a sign-out deletes the session, so "never" can also mean
 * "signed out since".
 */
import { listAccounts } from "../users/admin-users";
import { USER_STATUS } from "../users/service";
import { parseArgv } from "../platform/argv";
import type { Logger } from "../platform/log";
import { CommandError } from "./command-error";
import { openExistingDataDir } from "./open-data-dir";
import { USERS_USAGE } from "./usage";
export { USERS_USAGE };

export interface UsersIo {
  env: Record<string, string | undefined>;
  log: Logger;
}

const COLUMNS = ["EMAIL", "NAME", "ROLE", "STATUS", "LAST SEEN"] as const;

/** 2026-11-27 14:05 UTC: the minute is enough to tell accounts apart. */
const minute = (at: string | null) => (at ? `${at.slice(0, 10)} ${at.slice(11, 16)} UTC` : "never");

export async function usersCommand(argv: string[], io: UsersIo): Promise<string> {
  const args = parseArgv(
    argv,
    ["--data"],
    ({ kind, name }) =>
      new CommandError(`${kind === "unknown_option" ? `Unknown option ${name}` : `Option ${name} needs a value`}. Usage: ${USERS_USAGE}`),
  );
  if (args.positional.length) throw new CommandError(`Unexpected ${JSON.stringify(args.positional[0])}. Usage: ${USERS_USAGE}`);
  const core = openExistingDataDir(args.values["--data"] ?? (io.env.CAIRN_DATA || "./data"), io.log);
  try {
    const accounts = listAccounts(core);
    if (accounts.length === 0) return `No accounts yet in ${core.data.root}: the first person to open the wiki creates the owner's.`;
    const rows = accounts.map((a) => {
      const status =
        a.status === USER_STATUS.Suspended ? "suspended" : a.lockScope === "account" ? `locked until ${minute(a.lockedUntil)}` : "active";
      return [a.email, a.displayName, a.roleName, status, minute(a.lastSeenAt)];
    });
    const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((r) => r[i].length)));
    const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
    return [line(COLUMNS), ...rows.map(line)].join("\n");
  } finally {
    core.close();
  }
}
