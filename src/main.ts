#!/usr/bin/env bun
// Only what every start needs is imported here: each command, and the server, is loaded when
// it runs (a dynamic import, a chunk of its own in the binary), so `cairn --version` or a
// command does not evaluate the server, nor the server the commands (docs/decisions.md, "Start-up").
import type { Command } from "./cli/run";
import { BACKUP_USAGE, RESET_PASSWORD_USAGE, RESTORE_USAGE, SETUP_CODE_USAGE, USERS_USAGE } from "./cli/usage";
import { CHILD_COMMAND } from "./backups/child-command";
import { loadConfig, type Config } from "./platform/config";
import { jitAtNormalPolicy } from "./platform/jit-policy";
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
const COMMANDS: Record<string, () => Promise<Command>> = {
  "reset-password": async () => {
    const [{ resetPasswordCommand }, { readSecretLine }, { commandLogger }] = await Promise.all([
      import("./cli/reset-password"),
      import("./cli/read-secret"),
      import("./cli/run"),
    ]);
    return (argv) => resetPasswordCommand(argv, { env: process.env, log: commandLogger(), readSecret: readSecretLine });
  },
  "setup-code": async () => {
    const [{ setupCodeCommand }, { commandLogger }] = await Promise.all([import("./cli/setup-code"), import("./cli/run")]);
    return (argv) => setupCodeCommand(argv, { env: process.env, log: commandLogger() });
  },
  users: async () => {
    const [{ usersCommand }, { commandLogger }] = await Promise.all([import("./cli/users"), import("./cli/run")]);
    return (argv) => usersCommand(argv, { env: process.env, log: commandLogger() });
  },
  backup: async () => {
    const [{ backupCommand }, { commandLogger }] = await Promise.all([import("./cli/backup"), import("./cli/run")]);
    return (argv) => backupCommand(argv, { env: process.env, log: commandLogger(), progress: (line) => process.stderr.write(`${line}\n`) });
  },
  restore: async () => {
    const [{ restoreCommand }, { commandLogger }] = await Promise.all([import("./cli/restore"), import("./cli/run")]);
    return (argv) =>
      restoreCommand(argv, { env: process.env, log: commandLogger(), progress: (line) => process.stderr.write(`${line}\n`) });
  },
  // Hidden: a restore's heavy reads, run by the server in a child process (backups/restore-child.ts).
  [CHILD_COMMAND]: async () => (await import("./backups/restore-child")).restoreChildCommand,
};

const VERSION_WORDS = new Set(["version", "--version", "-v"]);
const HELP_WORDS = new Set(["help", "--help", "-h"]);

async function main(argv: string[]) {
  const debug = argv.includes("--debug");
  const args = argv.filter((a) => a !== "--debug");
  if (args.some((a) => VERSION_WORDS.has(a)) && !args.some((a) => HELP_WORDS.has(a))) return console.log(VERSION);
  if (args.some((a) => HELP_WORDS.has(a))) return console.log(USAGE);
  const [command, ...rest] = args[0]?.startsWith("-") || args.length === 0 ? ["serve", ...args] : args;
  if (Object.hasOwn(COMMANDS, command)) {
    // A command is all work that repeats (a backup's pages, an import's rows): the JIT at once.
    jitAtNormalPolicy();
    const [{ runCommand }, run] = await Promise.all([import("./cli/run"), COMMANDS[command]()]);
    return runCommand(run, rest, debug);
  }
  if (command !== "serve") {
    console.error(`cairn: unknown command "${command}".\n\n${USAGE}`);
    process.exit(2);
  }
  let config: Config | null = null;
  try {
    config = loadConfig(rest);
    await checkPortFree(config);
    await serve(config);
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

async function serve(config: Config) {
  const [{ startServer }, { warmUi }] = await Promise.all([import("./server"), import("./http/ui")]);
  // Whatever Cairn writes (backups, uploads, SQLite's files) is for this account only.
  process.umask(0o077);
  const running = startServer(config);
  const log = running.core.log;
  log.info("listening", { url: running.url, data: running.core.data.root, version: VERSION });
  // From source, the web UI is bundled a moment after start, so neither the first API answer
  // nor the first page view waits for it (the binary carries it built and compressed).
  setTimeout(
    () => warmUi((err) => log.error("web UI unavailable", { error: err instanceof Error ? err.message : String(err) })),
    500,
  ).unref();
  // Nothing a request or a background job does may end the process: log it and go on.
  process.on("uncaughtException", (err) => log.error("uncaught error", { error: err.stack ?? err.message }));
  process.on("unhandledRejection", (reason) =>
    log.error("unhandled rejection", { error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) }),
  );
  const shutdown = (signal: string) => {
    log.info("shutting down", { signal });
    running.stop().then(() => process.exit(0));
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

void main(process.argv.slice(2));
