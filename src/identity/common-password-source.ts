import { PASSWORD_MIN } from "./password";

/**
 * The common passwords as the package lists them, those a new password could be (long enough),
 * sorted: what scripts/gen-common-passwords.ts writes out and password.test.ts compares with.
 * Never loaded by the server (it reads the generated string).
 */
export async function commonPasswordLines(): Promise<string[]> {
  const { dictionary } = await import("@zxcvbn-ts/language-common");
  return [
    ...new Set((dictionary["passwords-common"] as string[]).filter((p) => p.length >= PASSWORD_MIN).map((p) => p.toLowerCase())),
  ].sort();
}
