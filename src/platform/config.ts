import { parseArgv, type ArgvProblem } from "./argv";
import { parseCidr, type Cidr } from "./ip-ranges";

/**
 * Start-up settings: flags first, then environment variables, then defaults (README.md,
 * Configuration). Everything else is an instance setting stored in the database.
 */
export interface Config {
  dataDir: string;
  host: string;
  port: number;
  baseUrl: string | null;
  /** Hosts or CIDRs that outbound requests may reach although private or loopback. */
  outboundAllow: string[];
  /**
   * Reverse proxies (addresses or CIDRs) whose X-Forwarded-For and X-Forwarded-Proto are
   * believed. A start-up setting, not an instance one: it belongs to how the machine is set up,
   * and an administrator who got it wrong in the UI could not undo it from behind the proxy.
   */
  trustedProxies: Cidr[];
  /**
   * CAIRN_RELEASE_FEED: the Atom or RSS feed of Cairn's releases that About's "check for
   * updates" reads (system/about.ts); "off" (or unset while there is no default) switches the
   * check off. Undefined: the default.
   */
  releaseFeed?: string | null;
  /**
   * CAIRN_CHROMIUM: the Chromium (or Chrome) executable that prints PDF exports
   * (exports/pdf.ts); /usr/bin/chromium when unset. Missing, PDF exports answer 503.
   */
  chromium?: string;
  /**
   * CAIRN_SEARCH_RECENT_PAGES: how many of the newest pages the recent word index holds
   * (search/fts5-recent.ts), where search ranks the newest matches of common words. Undefined:
   * the default (10,000).
   */
  searchRecentPages?: number;
}

export class ConfigError extends Error {}

const FLAGS = {
  "--data": "CAIRN_DATA",
  "--host": "CAIRN_HOST",
  "--port": "CAIRN_PORT",
  "--base-url": "CAIRN_BASE_URL",
  "--trusted-proxies": "CAIRN_TRUSTED_PROXIES",
} as const;

type Flag = keyof typeof FLAGS;

const configError = ({ kind, name }: ArgvProblem) =>
  new ConfigError(
    kind === "unknown_option"
      ? `Unknown option ${name}. Try: cairn serve --data ./data --host 127.0.0.1 --port 3000`
      : `Option ${name} needs a value`,
  );

export function parseFlags(argv: string[]): Partial<Record<Flag, string>> {
  const { positional, values } = parseArgv(argv, Object.keys(FLAGS), configError);
  if (positional.length) throw configError({ kind: "unknown_option", name: positional[0] });
  return values as Partial<Record<Flag, string>>;
}

export function loadConfig(argv: string[], env: Record<string, string | undefined> = process.env): Config {
  const flags = parseFlags(argv);
  const pick = (flag: Flag, fallback: string | null) => flags[flag] ?? env[FLAGS[flag]] ?? fallback;
  const portText = pick("--port", "3000")!;
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`Port must be a whole number from 0 to 65535, not "${portText}"`);
  const baseUrl = pick("--base-url", null);
  if (baseUrl !== null && !/^https?:\/\/[^\s]+$/.test(baseUrl))
    throw new ConfigError(`Base URL must start with http:// or https://, not "${baseUrl}"`);
  return {
    dataDir: pick("--data", "./data")!,
    host: pick("--host", "127.0.0.1")!,
    port,
    baseUrl: baseUrl?.replace(/\/+$/, "") ?? null,
    outboundAllow: list(env.CAIRN_OUTBOUND_ALLOW),
    chromium: env.CAIRN_CHROMIUM?.trim() || "/usr/bin/chromium",
    ...recentPages(env.CAIRN_SEARCH_RECENT_PAGES),
    releaseFeed:
      env.CAIRN_RELEASE_FEED === undefined ? undefined : env.CAIRN_RELEASE_FEED.trim() === "off" ? null : env.CAIRN_RELEASE_FEED.trim(),
    trustedProxies: list(pick("--trusted-proxies", null)).map((entry) => {
      const net = parseCidr(entry);
      if (!net) throw new ConfigError(`Trusted proxies must be IP addresses or CIDRs (such as 127.0.0.1 or 10.0.0.0/8), not "${entry}"`);
      return net;
    }),
  };
}

function recentPages(text: string | undefined): { searchRecentPages?: number } {
  if (text === undefined || text.trim() === "") return {};
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < 1 || n > 10_000_000)
    throw new ConfigError(`CAIRN_SEARCH_RECENT_PAGES must be a whole number from 1 to 10000000, not "${text}"`);
  return { searchRecentPages: n };
}

const list = (text: string | null | undefined) =>
  (text ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
