#!/usr/bin/env bun
import { readSecretLine } from "./cli/read-secret";
import { commandLogger, runCommand, type Command } from "./cli/run";
import { RESET_PASSWORD_USAGE, resetPasswordCommand } from "./cli/reset-password";
import { CHILD_COMMAND, restoreChildCommand } from "./backups/restore-child";
import { RESTORE_USAGE, restoreCommand } from "./cli/restore";
import { BACKUP_USAGE, backupCommand } from "./cli/backup";
import { USERS_USAGE, usersCommand } from "./cli/users";
import { SETUP_CODE_USAGE, setupCodeCommand } from "./cli/setup-code";
import { loadConfig, type Config } from "./platform/config";
import { warmUi } from "./http/ui";
import { startServer } from "./server";
import { explainStartupError } from "./startup-errors";
import { VERSION } from "./version";

const USAGE = `Cairn ${VERSION}: a self-hosted wiki in one executable.

Usage:
  cairn [serve] [--data DIR] [--host HOST] [--port PORT] [--base-url URL] [--debug]
  ${RESET_PASSWORD_USAGE}
                    set a forgotten password, read from standard input (one line); ends the
                    account's sessions and clears its sign-in lockout; the server may be running
  ${USERS_USAGE}
                    list the accounts (e-mail, name, role, status, last seen), e.g. to find
                    the address the owner signed up with; the server may be running
  ${SETUP_CODE_USAGE}
                    print the code the first-run owner form asks for when the server listens
                    beyond 127.0.0.1 (also printed in the server's log at start)
  ${BACKUP_USAGE}
                    take a backup of a stopped server's data directory, with progress on
                    standard error ("list" lists them); a running server takes its own
  ${RESTORE_USAGE}
                    restore a backup (at a moment, with --at) with the server stopped: a safety
                    backup first, then the data replaced; "undo" puts the replaced data back
  cairn version     (also --version, -v)
  cairn help        (also --help, -h)

Options (each also read from its environment variable):
  --data DIR              data directory (CAIRN_DATA, default ./data)
  --host HOST             address to listen on (CAIRN_HOST, default 127.0.0.1; 0.0.0.0 exposes it)
  --port PORT             port (CAIRN_PORT, default 3000)
  --base-url URL          public address used in e-mail links (CAIRN_BASE_URL, default from the request)
  --trusted-proxies LIST  reverse proxies (addresses or CIDRs, comma-separated) whose
                          X-Forwarded-For and X-Forwarded-Proto are believed (CAIRN_TRUSTED_PROXIES)
  --debug                 print the whole error, stack trace included, when the start fails
  CAIRN_OUTBOUND_ALLOW    hosts or CIDRs outbound requests may reach although private
  CAIRN_RELEASE_FEED      the releases feed (Atom or RSS) About checks for updates; "off" to stop
`;

/** Commands other than serve: each works on an existing data directory and prints one line. */
const COMMANDS: Record<string, Command> = {
  "reset-password": (argv) => resetPasswordCommand(argv, { env: process.env, log: commandLogger(), readSecret: readSecretLine }),
  "setup-code": (argv) => setupCodeCommand(argv, { env: process.env, log: commandLogger() }),
  users: (argv) => usersCommand(argv, { env: process.env, log: commandLogger() }),
  backup: (argv) => backupCommand(argv, { env: process.env, log: commandLogger(), progress: (line) => process.stderr.write(`${line}\n`) }),
  restore: (argv) => restoreCommand(argv, { env: process.env, log: commandLogger(), progress: (line) => process.stderr.write(`${line}\n`) }),
  // Hidden: a restore's heavy reads, run by the server in a child process (backups/restore-child.ts).
  [CHILD_COMMAND]: restoreChildCommand,
};

const VERSION_WORDS = new Set(["version", "--version", "-v"]);
const HELP_WORDS = new Set(["help", "--help", "-h"]);

async function main(argv: string[]) {
  const debug = argv.includes("--debug");
  const args = argv.filter((a) => a !== "--debug");
  if (args.some((a) => VERSION_WORDS.has(a)) && !args.some((a) => HELP_WORDS.has(a))) return console.log(VERSION);
  if (args.some((a) => HELP_WORDS.has(a))) return console.log(USAGE);
  const [command, ...rest] = args[0]?.startsWith("-") || args.length === 0 ? ["serve", ...args] : args;
  if (Object.hasOwn(COMMANDS, command)) return runCommand(COMMANDS[command], rest, debug);
  if (command !== "serve") {
    console.error(`cairn: unknown command "${command}".\n\n${USAGE}`);
    process.exit(2);
  }
  let config: Config | null = null;
  try {
    config = loadConfig(rest);
    await checkPortFree(config);
    serve(config);
  } catch (err) {
    console.error(`cairn: ${explainStartupError(err, config ?? { dataDir: "./data", host: "127.0.0.1", port: 3000 })}`);
    if (debug) console.error(err);
    process.exit(2);
  }
}

/** A port already taken is found before the data directory is created or migrated. */
async function checkPortFree(config: Config): Promise<void> {
  if (config.port === 0) return;
  const probe = Bun.listen({ hostname: config.host, port: config.port, socket: { data() {} } });
  probe.stop(true);
}

function serve(config: Config) {
  // Whatever Cairn writes (backups, uploads, SQLite's files) is for this account only.
  process.umask(0o077);
  const running = startServer(config);
  const log = running.core.log;
  log.info("listening", { url: running.url, data: running.core.data.root, version: VERSION });
  // From source, the web UI is bundled a moment after start, so neither the first API answer
  // nor the first page view waits for it (the binary carries it built and compressed).
  setTimeout(() => warmUi((err) => log.error("web UI unavailable", { error: err instanceof Error ? err.message : String(err) })), 500).unref();
  // Nothing a request or a background job does may end the process: log it and go on.
  process.on("uncaughtException", (err) => log.error("uncaught error", { error: err.stack ?? err.message }));
  process.on("unhandledRejection", (reason) => log.error("unhandled rejection", { error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) }));
  const shutdown = (signal: string) => {
    log.info("shutting down", { signal });
    running.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

void main(process.argv.slice(2));
