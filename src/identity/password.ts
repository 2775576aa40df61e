import { invalid } from "../platform/errors";
import { PASSWORD_MAX, PASSWORD_MIN } from "../common/limits";

export { PASSWORD_MAX, PASSWORD_MIN };

// The common passwords (18,000 of them long enough to be chosen) are one string, loaded when a
// password is first chosen: as the package lists them, in arrays and a Set, they held ~9 MB of
// the server's memory for good after the owner's first sign-up (scripts/gen-common-passwords.ts).
let common: Promise<string> | null = null;
async function isCommon(password: string): Promise<boolean> {
  // A line feed is in no listed password (it would also let a search span two of them).
  if (password.includes("\n")) return false;
  common ??= import("./common-passwords.gen").then((m) => m.COMMON_PASSWORDS);
  return (await common).includes(`\n${password.toLowerCase()}\n`);
}

/**
 * 8 to 256 characters, no composition rules, not a commonly used password (docs/decisions.md,
 * "Passwords").
 */
export async function checkNewPassword(password: string, field = "password"): Promise<void> {
  if (password.length < PASSWORD_MIN) throw invalid(field, `must be at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX) throw invalid(field, `must be at most ${PASSWORD_MAX} characters`);
  if (await isCommon(password)) throw invalid(field, "is one of the most commonly used passwords; choose another");
}

// OWASP's argon2id baseline (19 MiB, 2 passes): strong, and quick enough for a Raspberry Pi
// that handles sign-ins while serving pages. Bun's default (64 MiB) costs ~4× more per login.
export const ARGON2 = { algorithm: "argon2id", memoryCost: 19_456, timeCost: 2 } as const;

/**
 * The least argon2id allows, for the in-process test suite only (tests/harness.ts): about 600
 * tests make accounts and sign in, and at the real cost hashing was 40 % of the suite's time.
 * Every hash carries its own parameters, so verifying needs no switch; password.test.ts checks
 * that a server process hashes at the real cost.
 */
const ARGON2_FOR_TESTS = { algorithm: "argon2id", memoryCost: 64, timeCost: 1 } as const;
let argon2: typeof ARGON2 | typeof ARGON2_FOR_TESTS = ARGON2;

export function hashPasswordsCheaplyForTests(): void {
  argon2 = ARGON2_FOR_TESTS;
}

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, argon2);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (password.length > PASSWORD_MAX) return Promise.resolve(false);
  return Bun.password.verify(password, hash);
}

// Verifying against this when the account does not exist keeps "unknown e-mail" as slow as
// "wrong password", so timing does not reveal which accounts exist.
let dummyHash: Promise<string> | null = null;
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword("cairn-timing-equaliser");
  await Bun.password.verify(password.slice(0, PASSWORD_MAX), await dummyHash);
  return false;
}
