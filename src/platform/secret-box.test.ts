import { describe, expect, test } from "bun:test";
import { randomBytes } from "./crypto";
import { openSecret, SecretBoxError, sealSecret } from "./secret-box";

const key = randomBytes(32);

describe("secret box", () => {
  test("what is sealed opens again with the same key and purpose; the sealed text does not carry it", () => {
    const sealed = sealSecret(key, "backup-target", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(sealed).not.toContain("wJalrXUtnFEMI");
    expect(openSecret(key, "backup-target", sealed)).toBe("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
  });

  test("the same secret seals differently every time (a fresh IV)", () => {
    expect(sealSecret(key, "backup-target", "s")).not.toBe(sealSecret(key, "backup-target", "s"));
    expect(openSecret(key, "backup-target", sealSecret(key, "backup-target", ""))).toBe("");
  });

  test("another key, another purpose, an altered byte or an unknown version do not open", () => {
    const sealed = sealSecret(key, "backup-target", "secret");
    expect(() => openSecret(randomBytes(32), "backup-target", sealed)).toThrow(SecretBoxError);
    expect(() => openSecret(key, "webhook", sealed)).toThrow(SecretBoxError);
    const body = sealed.slice(3);
    const flipped = body.slice(0, 20) + (body[20] === "A" ? "B" : "A") + body.slice(21);
    expect(() => openSecret(key, "backup-target", `v1.${flipped}`)).toThrow(SecretBoxError);
    expect(() => openSecret(key, "backup-target", `v2.${body}`)).toThrow(/unknown sealed-secret version "v2"/);
    expect(() => openSecret(key, "backup-target", "v1.AAAA")).toThrow(/too short/);
    expect(() => openSecret(key, "backup-target", "plain text")).toThrow(SecretBoxError);
  });

  test("a purpose is a short label and the key has 32 bytes at least", () => {
    expect(() => sealSecret(key, "Has Spaces", "x")).toThrow(SecretBoxError);
    expect(() => sealSecret(randomBytes(16), "backup-target", "x")).toThrow(SecretBoxError);
  });
});
