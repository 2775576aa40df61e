import { describe, expect, test } from "bun:test";
import { signCollabToken, verifyCollabToken } from "./token";

const key = new Uint8Array(32).fill(7);
const other = new Uint8Array(32).fill(8);
const now = 1_800_000_000_000;
const claims = { userId: "user-1", pageId: "page-1", expiresAt: now + 60_000 };

describe("collab tokens", () => {
  test("a token verifies for its page until it expires", () => {
    const token = signCollabToken(key, claims);
    expect(verifyCollabToken(key, token, "page-1", now)).toEqual({ ok: true, claims });
    expect(verifyCollabToken(key, token, "page-1", claims.expiresAt)).toEqual({ ok: false, why: "expired" });
  });

  test("another page, another key, an altered payload or garbage are refused", () => {
    const token = signCollabToken(key, claims);
    expect(verifyCollabToken(key, token, "page-2", now)).toEqual({ ok: false, why: "other_page" });
    expect(verifyCollabToken(other, token, "page-1", now)).toEqual({ ok: false, why: "forged" });
    const [prefix, , mac] = token.split(".");
    const longer = Buffer.from(`user-1.page-1.${claims.expiresAt + 3_600_000}`).toString("base64url");
    expect(verifyCollabToken(key, `${prefix}.${longer}.${mac}`, "page-1", now)).toEqual({ ok: false, why: "forged" });
    for (const junk of ["", "c1", "c1..", "x.y.z", `${token}.more`, "c1.".padEnd(600, "a")])
      expect(verifyCollabToken(key, junk, "page-1", now).ok).toBe(false);
  });
});
