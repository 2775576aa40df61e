#!/usr/bin/env bun
import { ConfigError, loadConfig } from "./platform/config";
import { SchemaTooNewError } from "./platform/db/migrate";
import { startServer } from "./server";
import { VERSION } from "./version";

const USAGE = `Cairn ${VERSION}: a self-hosted wiki in one executable.

Usage:
  cairn [serve] [--data DIR] [--host HOST] [--port PORT] [--base-url URL]
  cairn version

Options (each also read from its environment variable):
  --data DIR        data directory (CAIRN_DATA, default ./data)
  --host HOST       address to listen on (CAIRN_HOST, default 127.0.0.1; 0.0.0.0 exposes it)
  --port PORT       port (CAIRN_PORT, default 3000)
  --base-url URL    public address used in e-mail links (CAIRN_BASE_URL, default from the request)
  CAIRN_OUTBOUND_ALLOW  hosts or CIDRs outbound requests may reach although private
`;

function main(argv: string[]) {
  const [command, ...rest] = argv[0]?.startsWith("-") || argv.length === 0 ? ["serve", ...argv] : argv;
  if (command === "version" || command === "--version") {
    console.log(VERSION);
    return;
  }
  if (command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return;
  }
  if (command !== "serve") {
    console.error(`Unknown command "${command}".\n\n${USAGE}`);
    process.exit(2);
  }
  try {
    const config = loadConfig(rest);
    const running = startServer(config);
    running.core.log.info("listening", { url: running.url, data: running.core.data.root, version: VERSION });
    const shutdown = (signal: string) => {
      running.core.log.info("shutting down", { signal });
      running.stop().then(() => process.exit(0));
    };
    process.on("SIGINT", () => shutdown("SIGINT"));
    process.on("SIGTERM", () => shutdown("SIGTERM"));
  } catch (err) {
    if (err instanceof ConfigError || err instanceof SchemaTooNewError) {
      console.error(`cairn: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}

main(process.argv.slice(2));
