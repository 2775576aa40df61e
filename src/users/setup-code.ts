/**
 * The setup code (docs/decisions.md, "The setup code"): on a first run that listens beyond this
 * computer (--host 0.0.0.0, a LAN address), whoever reaches the port first would become the owner.
 * So the first account needs a code the server prints in its log at start, as Portainer, Jenkins
 * and Grafana's first-run tokens do; `cairn setup-code --data DIR` prints it again. On loopback
 * (127.0.0.1, ::1, localhost) only this computer can reach the form, and no code is asked.
 *
 * The code lives in DATA/setup-code (mode 0600), the one copy the server and the command share:
 * the server reads it at each first-account attempt, so a code the command created while the
 * server runs is the one that works. It is removed once the owner exists.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Core } from "../core";
import { writeFileDurably } from "../platform/durable-file";
import { AppError } from "../platform/errors";
import { classifyIp, parseIp } from "../platform/ip-ranges";

const FILE = "setup-code";
/** No 0/O, 1/I/L: read off a terminal and typed by hand. 12 of 31 symbols: ~59 bits. */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

export const SETUP_CODE_WHERE =
  'Cairn printed it in its log when it started; the command "cairn setup-code --data DIR" on the server prints it again.';

/** Whether the server's listening address lets other machines reach it. */
export function listensBeyondLoopback(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost" || name.endsWith(".localhost")) return false;
  const ip = parseIp(name);
  // A host name other than localhost resolves to who knows what: treated as reachable.
  return !ip || classifyIp(ip) !== "loopback address";
}

const pathOf = (root: string) => join(root, FILE);

export function readSetupCode(root: string): string | null {
  try {
    const code = readFileSync(pathOf(root), "utf8").trim();
    return code || null;
  } catch {
    return null;
  }
}

/** The stored code, or a new one written (private, durably). */
export function ensureSetupCode(root: string): { code: string; created: boolean } {
  const kept = readSetupCode(root);
  if (kept) return { code: kept, created: false };
  const symbols = Array.from({ length: 12 }, () => ALPHABET[randomBelow(ALPHABET.length)]).join("");
  const code = `${symbols.slice(0, 4)}-${symbols.slice(4, 8)}-${symbols.slice(8)}`;
  writeFileDurably(pathOf(root), `${code}\n`);
  return { code, created: true };
}

export function forgetSetupCode(root: string): void {
  if (existsSync(pathOf(root))) rmSync(pathOf(root), { force: true });
}

/**
 * A uniform random whole number below `n` (rejection sampling). Web Crypto and Bun's hasher
 * rather than node:crypto here and in the WAL archive: importing node:crypto builds Node's
 * stream classes (~4 ms of a cold start), and these modules load before the server listens.
 */
function randomBelow(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  const word = new Uint32Array(1);
  do crypto.getRandomValues(word);
  while (word[0] >= limit);
  return word[0] % n;
}

/** Spaces, dashes and case do not matter (it is read off a screen). */
const normalise = (code: string) => code.replace(/[\s-]+/g, "").toUpperCase();

/** Constant time: both sides hashed to 32 bytes first, so neither content nor length leaks. */
function sameCode(given: string, expected: string): boolean {
  const digest = (s: string) => new Bun.CryptoHasher("sha256").update(normalise(s)).digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}

export const setupCodeNeeded = (core: Core) => listensBeyondLoopback(core.config.host);

/** Logs the code (creating it when missing). */
function logCode(core: Core, code: string): void {
  core.log.warn("first run: the owner account needs this setup code", {
    setupCode: code,
    host: core.config.host,
    why: "this server can be reached from other machines: only someone who can read this log may create the owner account",
    again: `cairn setup-code --data ${core.data.root}`,
  });
}

/**
 * At the server's start: with no account yet and a listening address beyond loopback, the code
 * is made (or kept) and printed; once the owner exists a code left behind is removed.
 */
export function announceSetupCode(core: Core, hasAccounts: boolean): void {
  if (hasAccounts) return forgetSetupCode(core.data.root);
  if (!setupCodeNeeded(core)) return;
  logCode(core, ensureSetupCode(core.data.root).code);
}

/**
 * The first account's check (inside the registration's transaction, when no account exists):
 * 400 without a code, 403 with a wrong one, both naming setupCode and saying where to find it.
 */
export function requireSetupCode(core: Core, given: string | undefined): void {
  if (!setupCodeNeeded(core)) return;
  const { code, created } = ensureSetupCode(core.data.root);
  if (created) logCode(core, code);
  if (!given?.trim()) {
    const reason =
      `The setup code is required: this server can be reached from other ` + `machines, so the owner account needs it. ${SETUP_CODE_WHERE}`;
    throw new AppError("validation_failed", { field: "setupCode", detail: reason, errors: { setupCode: [reason] } });
  }
  if (!sameCode(given, code)) {
    const reason = `That is not the setup code. ${SETUP_CODE_WHERE}`;
    throw new AppError("forbidden", { field: "setupCode", detail: reason, errors: { setupCode: [reason] } }, "The setup code is wrong");
  }
}
